/**
 * The banner of a data request the service refused with SCHEMA_OUT_OF_SYNC (status 503): the
 * workspace database changed under the service (a column dropped, a table renamed) and the model is
 * older than it. It names what is missing and offers the workspace sync (owners and the instance
 * admin may run it; anyone else is told the service's refusal), then loads again.
 */
import { useState } from 'preact/hooks';
import { adminBase, api, ApiFailure, message } from '../lib/api.ts';

export const SCHEMA_OUT_OF_SYNC = 'SCHEMA_OUT_OF_SYNC';

export interface OutOfSync {
  readonly message: string;
  readonly entity?: string;
  readonly missing?: { readonly kind: string; readonly name: string };
}

/** The out-of-sync details of a refusal, or undefined for any other error. */
export function outOfSyncOf(error: unknown): OutOfSync | undefined {
  if (!(error instanceof ApiFailure) || error.code !== SCHEMA_OUT_OF_SYNC) return undefined;
  const details = (error.details ?? {}) as { entity?: unknown; missing?: { kind?: unknown; name?: unknown } };
  const missing = details.missing && typeof details.missing.name === 'string' ? { kind: String(details.missing.kind ?? 'column'), name: details.missing.name } : undefined;
  return { message: error.message, ...(typeof details.entity === 'string' ? { entity: details.entity } : {}), ...(missing ? { missing } : {}) };
}

function described(problem: OutOfSync): string {
  const what = problem.missing ? `the ${problem.missing.kind} ${problem.missing.name} is missing` : 'the database changed';
  return `The schema is out of sync with the database${problem.entity ? ` for ${problem.entity}` : ''}: ${what}.`;
}

interface SchemaBannerProps {
  readonly org: string;
  readonly ws: string;
  readonly problem: OutOfSync;
  /** Called after a successful sync: load the model and the data again. */
  readonly onSynced: () => void;
}

export function SchemaBanner({ org, ws, problem, onSynced }: SchemaBannerProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  async function sync() {
    setBusy(true);
    setFailure(undefined);
    try {
      await api('POST', `${adminBase(org, ws)}/sync`);
      onSynced();
    } catch (error) {
      setFailure(`The sync failed: ${message(error)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div class="banner" role="alert">
      <p>
        {described(problem)} Sync the workspace to read its tables again. <small>{problem.message}</small>
      </p>
      <button type="button" disabled={busy} onClick={sync}>
        {busy ? 'Syncing…' : 'Sync'}
      </button>
      {failure && <p class="error-note">{failure}</p>}
    </div>
  );
}
