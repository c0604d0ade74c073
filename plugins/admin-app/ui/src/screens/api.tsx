/**
 * Screen 7 (DESIGN §15): the workspace's OpenAPI document, rendered by Swagger UI bundled with the
 * app (loaded with this screen only). The document is fetched with the session's bearer; Swagger
 * UI gets it as an object, so it never fetches anything itself, and "try it out" is off (the
 * credential stays out of the viewer). No validator badge: that would call an outside service.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import { api, message, recordsBase } from '../lib/api.ts';
import type { WorkspaceProps } from '../lib/route.ts';
import { ErrorNote } from '../components/field.tsx';

export function ApiScreen({ org, ws }: WorkspaceProps) {
  const host = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string>();
  const path = `${recordsBase(org, ws)}/openapi.json`;
  useEffect(() => {
    let current = true;
    api<object>('GET', path).then(
      (answer) => {
        // The document is not enveloped: the answer is the document itself.
        if (!current || !host.current) return;
        const node = host.current;
        SwaggerUIBundle({ spec: answer as unknown as object, domNode: node, validatorUrl: null, supportedSubmitMethods: [], deepLinking: false });
      },
      (failure: unknown) => current && setError(message(failure)),
    );
    return () => {
      current = false;
    };
  }, [path]);
  return (
    <>
      <h1>API</h1>
      <p>
        The OpenAPI document of this workspace: <code>GET {path}</code> (with a bearer).
      </p>
      <ErrorNote error={error} />
      {/* Swagger UI's server picker (#servers) has no label of its own. */}
      <label for="servers" class="visually-hidden">
        Server
      </label>
      <div ref={host} class="openapi" />
    </>
  );
}
