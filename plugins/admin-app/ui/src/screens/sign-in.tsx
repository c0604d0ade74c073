/**
 * Sign in by pasting the instance admin token (wda_…) or a workspace API key (wdk_…, with its
 * organization and workspace). The credential is checked with one call before it is kept.
 */
import { useState } from 'preact/hooks';
import { adminBase, api, message } from '../lib/api.ts';
import { kindOf, type Session } from '../lib/session.ts';
import { described, ErrorNote, Field } from '../components/field.tsx';

async function check(session: Session): Promise<void> {
  const path = session.kind === 'admin' ? '/api/admin/v1/orgs' : adminBase(session.org ?? '', session.ws ?? '');
  await api('GET', path, { token: session.token });
}

export function SignIn({ onSignedIn }: { readonly onSignedIn: (session: Session) => void }) {
  const [token, setToken] = useState('');
  const [org, setOrg] = useState('');
  const [ws, setWs] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const kind = kindOf(token.trim());

  async function submit(event: Event) {
    event.preventDefault();
    const session: Session = kind === 'admin' ? { token: token.trim(), kind } : { token: token.trim(), kind, org: org.trim(), ws: ws.trim() };
    setBusy(true);
    setError(undefined);
    try {
      await check(session);
      onSignedIn(session);
    } catch (failure) {
      setError(`Sign-in refused: ${message(failure)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <h1>Workspace Data API</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <Field id="token" label="Admin token or API key" hint="npm start prints both for the demo. Kept in this tab only (sessionStorage).">
          <input {...described('token', undefined, true)} type="password" autoComplete="off" required value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        </Field>
        {token.trim() !== '' && kind === 'apiKey' && (
          <>
            <Field id="sign-in-org" label="Organization of the API key">
              <input id="sign-in-org" required value={org} onInput={(e) => setOrg(e.currentTarget.value)} />
            </Field>
            <Field id="sign-in-ws" label="Workspace of the API key">
              <input id="sign-in-ws" required value={ws} onInput={(e) => setWs(e.currentTarget.value)} />
            </Field>
          </>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
