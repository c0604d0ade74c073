/**
 * The credential of this tab (DESIGN §15): kept in sessionStorage only, so it is gone when the tab
 * closes, and sent as a bearer header by lib/api.ts, never in a URL. Signing out forgets it.
 */
export type CredentialKind = 'admin' | 'apiKey';

export interface Session {
  readonly token: string;
  readonly kind: CredentialKind;
  /** The workspace an API key belongs to (an admin token opens every workspace). */
  readonly org?: string;
  readonly ws?: string;
}

const KEY = 'wdapi-admin-session';

export function kindOf(token: string): CredentialKind {
  return token.startsWith('wda_') ? 'admin' : 'apiKey';
}

export function loadSession(): Session | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return parsed && typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
}
