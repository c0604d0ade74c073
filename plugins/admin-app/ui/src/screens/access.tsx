/**
 * Screen 5 (DESIGN §15): API keys (a created key is shown once), the identity provider with a
 * "check a token" box naming the failing check, and the RLS rules of each entity's default view.
 */
import { useState } from 'preact/hooks';
import { adminBase, api, ApiFailure, call, message, recordsBase } from '../lib/api.ts';
import { claimCheck, decodeClaims, failedCheck, TOKEN_CHECKS, type ExpectedIssuer, type TokenCheck } from '../lib/jwt.ts';
import type { WorkspaceProps } from '../lib/route.ts';
import { loadSchema, loadViews } from '../lib/schema.ts';
import { RlsRules } from './rls-rules.tsx';
import { useLoad } from '../lib/use-load.ts';
import { DataTable, display } from '../components/data-table.tsx';
import { described, ErrorNote, Field, Notice } from '../components/field.tsx';

interface ApiKey {
  readonly id: string;
  readonly name: string | null;
  readonly createdAt: string;
}

function ApiKeys({ org, ws }: { readonly org: string; readonly ws: string }) {
  const base = `${adminBase(org, ws)}/api-keys`;
  const keys = useLoad(async () => (await api<ApiKey[]>('GET', base)).data, [base]);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ id: string; key: string }>();
  const [confirm, setConfirm] = useState<string>();
  const [error, setError] = useState<string>();
  async function create(event: Event) {
    event.preventDefault();
    try {
      setCreated((await api<{ id: string; key: string }>('POST', base, { body: name ? { name } : {} })).data);
      setName('');
      keys.reload();
    } catch (failure) {
      setError(message(failure));
    }
  }
  async function revoke(id: string) {
    try {
      await api('DELETE', `${base}/${encodeURIComponent(id)}`);
      setConfirm(undefined);
      keys.reload();
    } catch (failure) {
      setError(message(failure));
    }
  }
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <form onSubmit={create} aria-label="New API key">
        <Field id="key-name" label="Key name">
          <input id="key-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <button type="submit">Create API key</button>
      </form>
      {created && (
        <div class="panel" role="status" aria-label="New API key">
          <p>
            Key <code>{created.id}</code> created. Copy it now: it is shown this once and never again.
          </p>
          <p class="secret" id="new-key">
            {created.key}
          </p>
          <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      <ErrorNote error={keys.error ?? error} />
      <DataTable
        caption="Keys of this workspace (the secret is never listed)"
        fields={[{ name: 'id', label: 'id' }, { name: 'name', label: 'name' }, { name: 'createdAt', label: 'created' }]}
        rows={(keys.value ?? []) as unknown as Record<string, unknown>[]}
        actions={(row) => {
          const id = String(row.id);
          return confirm === id ? (
            <button type="button" class="danger" onClick={() => revoke(id)}>
              Confirm revoke {id}
            </button>
          ) : (
            <button type="button" class="danger" aria-label={`Revoke ${id}`} onClick={() => setConfirm(id)}>
              Revoke
            </button>
          );
        }}
      />
    </section>
  );
}

interface IdentityProvider {
  issuerUrl: string;
  jwksUri: string;
  audience: string;
  defaultPermissions: 'READ_ONLY' | 'READ_WRITE';
  enabled: boolean;
}

const EMPTY_IDP: IdentityProvider = { issuerUrl: '', jwksUri: '', audience: '', defaultPermissions: 'READ_ONLY', enabled: true };

function IdentityProviderForm({ org, ws }: { readonly org: string; readonly ws: string }) {
  const path = `${adminBase(org, ws)}/identity-provider`;
  const loaded = useLoad(async () => {
    try {
      return { ...EMPTY_IDP, ...(await api<Partial<IdentityProvider>>('GET', path)).data } as IdentityProvider;
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) return EMPTY_IDP;
      throw error;
    }
  }, [path]);
  const [edits, setEdits] = useState<Partial<IdentityProvider>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string>();
  const [general, setGeneral] = useState<string>();
  const form = { ...(loaded.value ?? EMPTY_IDP), ...edits };
  const set = (key: keyof IdentityProvider) => (e: { currentTarget: { value: string } }) => setEdits({ ...edits, [key]: e.currentTarget.value });
  async function save(event: Event) {
    event.preventDefault();
    const body = { issuerUrl: form.issuerUrl, defaultPermissions: form.defaultPermissions, enabled: form.enabled, ...(form.jwksUri ? { jwksUri: form.jwksUri } : {}), ...(form.audience ? { audience: form.audience } : {}) };
    try {
      await api('PUT', path, { body });
      setProblems({});
      setGeneral(undefined);
      setNote('Identity provider saved.');
    } catch (error) {
      const byField: Record<string, string> = {};
      if (error instanceof ApiFailure) for (const p of error.fieldProblems()) if (p.field) byField[p.field] = p.message;
      setProblems(byField);
      setGeneral(message(error));
    }
  }
  return (
    <section aria-labelledby="idp-title">
      <h2 id="idp-title">Identity provider</h2>
      <ErrorNote error={loaded.error} />
      <form onSubmit={save} aria-label="Identity provider">
        <Field id="idp-issuer" label="Issuer URL" error={problems.issuerUrl}>
          <input {...described('idp-issuer', problems.issuerUrl)} size={40} required value={form.issuerUrl} onInput={set('issuerUrl')} />
        </Field>
        <Field id="idp-jwks" label="JWKS URI (blank: discovered)" error={problems.jwksUri}>
          <input {...described('idp-jwks', problems.jwksUri)} size={40} value={form.jwksUri} onInput={set('jwksUri')} />
        </Field>
        <Field id="idp-audience" label="Audience (optional)" error={problems.audience}>
          <input {...described('idp-audience', problems.audience)} value={form.audience} onInput={set('audience')} />
        </Field>
        <Field id="idp-permissions" label="Default permissions">
          <select id="idp-permissions" value={form.defaultPermissions} onChange={set('defaultPermissions')}>
            <option value="READ_ONLY">READ_ONLY</option>
            <option value="READ_WRITE">READ_WRITE</option>
          </select>
        </Field>
        <div class="field">
          <label>
            <input type="checkbox" checked={form.enabled} onChange={(e) => setEdits({ ...edits, enabled: e.currentTarget.checked })} /> Enabled
          </label>
        </div>
        <button type="submit">Save identity provider</button>
        <ErrorNote error={general} />
        <Notice text={note} />
      </form>
      <TokenCheckBox org={org} ws={ws} expected={{ issuerUrl: form.issuerUrl, audience: form.audience ?? '' }} />
    </section>
  );
}

type Verdict = { readonly accepted: true } | { readonly accepted: false; readonly check: TokenCheck; readonly message: string };

function TokenCheckBox({ org, ws, expected }: { readonly org: string; readonly ws: string; readonly expected: ExpectedIssuer }) {
  const [token, setToken] = useState('');
  const [verdict, setVerdict] = useState<Verdict>();
  const claims = decodeClaims(token.trim());
  async function check(event: Event) {
    event.preventDefault();
    try {
      // A read the external user could make: the service runs every check on the token.
      await call('GET', `${recordsBase(org, ws)}/openapi.json`, { token: token.trim() });
      setVerdict({ accepted: true });
    } catch (error) {
      const text = message(error);
      setVerdict({ accepted: false, check: failedCheck(text), message: text });
    }
  }
  return (
    <form onSubmit={check} aria-label="Check a token" class="panel stack">
      <h3>Check a token</h3>
      <Field id="check-token" label="A token from the identity provider">
        <textarea id="check-token" rows={3} value={token} onInput={(e) => setToken(e.currentTarget.value)} />
      </Field>
      {claims && (
        <p>
          Claims (unverified): iss <code>{display(claims.iss)}</code>, aud <code>{display(claims.aud)}</code>, sub <code>{display(claims.sub)}</code>, exp{' '}
          <code>{typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toISOString() : display(claims.exp)}</code>
        </p>
      )}
      <div>
        <button type="submit">Check token</button>
      </div>
      {verdict && (
        <div role="status" aria-label="Token checks">
        <ul class="chips">
          {TOKEN_CHECKS.map((name) => {
            const failed = !verdict.accepted && verdict.check === name;
            const unknown = !verdict.accepted && !failed;
            const read = unknown ? claimCheck(name, claims, expected, Date.now() / 1000) : null;
            const text = failed ? `fails (${verdict.message})` : !unknown ? 'passes' : read ? `${read} (from its claims)` : 'not reached';
            return (
              <li key={name} class={failed || read === 'fails' ? 'field-error' : undefined}>
                {name}: {text}
              </li>
            );
          })}
        </ul>
        </div>
      )}
    </form>
  );
}

export function AccessScreen({ org, ws }: WorkspaceProps) {
  const model = useLoad(async () => ({ entities: await loadSchema(org, ws), views: await loadViews(org, ws) }), [org, ws]);
  return (
    <>
      <h1>Access</h1>
      <ApiKeys org={org} ws={ws} />
      <IdentityProviderForm org={org} ws={ws} />
      <ErrorNote error={model.error} />
      {model.value && <RlsRules entities={model.value.entities} views={model.value.views} />}
    </>
  );
}
