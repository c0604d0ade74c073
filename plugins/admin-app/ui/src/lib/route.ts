/**
 * Routing by the URL's hash (`#/w/demo/demo/data/orders`): the server serves one index.html, and
 * a reload or a shared link lands on the same screen. No credential ever goes into the URL.
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { readonly screen: 'orgs' }
  | { readonly screen: WorkspaceScreen; readonly org: string; readonly ws: string; readonly entity?: string };

export const WORKSPACE_SCREENS = ['data', 'columns', 'options', 'access', 'import', 'api'] as const;
export type WorkspaceScreen = (typeof WORKSPACE_SCREENS)[number];

/** What every workspace screen is given. */
export interface WorkspaceProps {
  readonly org: string;
  readonly ws: string;
  readonly entity: string | undefined;
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first, org, ws, screen, entity] = parts;
  if (first === 'w' && org && ws) {
    const known = (WORKSPACE_SCREENS as readonly string[]).includes(screen ?? '') ? (screen as WorkspaceScreen) : 'data';
    return { screen: known, org, ws, ...(entity ? { entity } : {}) };
  }
  return { screen: 'orgs' };
}

export function href(route: Route): string {
  if (route.screen === 'orgs') return '#/orgs';
  const parts = ['w', route.org, route.ws, route.screen, ...(route.entity ? [route.entity] : [])];
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
