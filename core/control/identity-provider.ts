/** PUT of a workspace's external identity provider (spec "External identity provider configuration"). */
import { PayloadReader } from '../payload.ts';
import type { ExternalPermissions, IdentityProviderConfig } from '../workspace/types.ts';

const PERMISSIONS: readonly ExternalPermissions[] = ['READ_ONLY', 'READ_WRITE'];

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function readIdentityProvider(body: unknown): IdentityProviderConfig {
  const reader = new PayloadReader(body, ['issuerUrl', 'jwksUri', 'audience', 'defaultPermissions', 'enabled']);
  // The issuer is kept exactly as given: it must equal the tokens' `iss`, trailing slash included.
  const issuerUrl = reader.string('issuerUrl', { required: true });
  if (issuerUrl && !isHttpUrl(issuerUrl)) reader.fail('issuerUrl', 'url', 'must be an http(s) URL');
  const jwksUri = reader.body.jwksUri === null || reader.body.jwksUri === '' ? undefined : reader.string('jwksUri');
  if (jwksUri && !isHttpUrl(jwksUri)) reader.fail('jwksUri', 'url', 'must be an http(s) URL');
  const audience = reader.body.audience === null || reader.body.audience === '' ? undefined : reader.string('audience');
  const permissions = reader.string('defaultPermissions', { required: true });
  if (permissions && !PERMISSIONS.includes(permissions as ExternalPermissions)) reader.fail('defaultPermissions', 'enum', `must be one of ${PERMISSIONS.join(', ')}`);
  const enabled = reader.boolean('enabled', true);
  reader.done();
  return {
    issuerUrl: issuerUrl ?? '',
    jwksUri: jwksUri ?? null,
    audience: audience ?? null,
    defaultPermissions: permissions as ExternalPermissions,
    enabled: enabled ?? false,
  };
}
