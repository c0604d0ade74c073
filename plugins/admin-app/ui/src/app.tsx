/** The shell: sign-in, the navigation, and the screen the hash names (DESIGN §15). */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { forgetSession, loadSession, saveSession, type Session } from './lib/session.ts';
import { href, useRoute, type Route, type WorkspaceProps, type WorkspaceScreen } from './lib/route.ts';
import { SignIn } from './screens/sign-in.tsx';
import { Orgs } from './screens/orgs.tsx';

/** Screens past the first load on demand, so the first screen stays small. */
const SCREENS: Record<WorkspaceScreen, { label: string; load: () => Promise<ComponentType<WorkspaceProps>> }> = {
  data: { label: 'Data', load: async () => (await import('./screens/data.tsx')).DataScreen },
  columns: { label: 'Columns', load: async () => (await import('./screens/columns.tsx')).ColumnsScreen },
  options: { label: 'Entity options', load: async () => (await import('./screens/options.tsx')).OptionsScreen },
  access: { label: 'Access', load: async () => (await import('./screens/access.tsx')).AccessScreen },
  import: { label: 'Import', load: async () => (await import('./screens/import.tsx')).ImportScreen },
  api: { label: 'API', load: async () => (await import('./screens/api.tsx')).ApiScreen },
};

function Lazy({ screen, props }: { readonly screen: WorkspaceScreen; readonly props: WorkspaceProps }) {
  const [loaded, setLoaded] = useState<{ screen: WorkspaceScreen; component: ComponentType<WorkspaceProps> }>();
  useEffect(() => {
    let current = true;
    void SCREENS[screen].load().then((component) => current && setLoaded({ screen, component }));
    return () => {
      current = false;
    };
  }, [screen]);
  if (loaded?.screen !== screen) return <p role="status">Loading…</p>;
  const Screen = loaded.component;
  return <Screen {...props} />;
}

function Nav({ route, session, onSignOut }: { readonly route: Route; readonly session: Session; readonly onSignOut: () => void }) {
  return (
    <header class="top">
      <span class="brand">Workspace Data API</span>
      <nav aria-label="Main">
        <ul>
          {session.kind === 'admin' && (
            <li>
              <a href={href({ screen: 'orgs' })} aria-current={route.screen === 'orgs' ? 'page' : undefined}>
                Organizations
              </a>
            </li>
          )}
          {route.screen !== 'orgs' &&
            (Object.keys(SCREENS) as WorkspaceScreen[]).map((screen) => (
              <li key={screen}>
                <a href={href({ ...route, screen })} aria-current={route.screen === screen ? 'page' : undefined}>
                  {SCREENS[screen].label}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <button type="button" class="secondary" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}

/** An API key opens one workspace: land there instead of the organization list it may not read. */
function routeFor(route: Route, session: Session): Route {
  if (session.kind === 'apiKey' && route.screen === 'orgs') return { screen: 'data', org: session.org ?? '', ws: session.ws ?? '' };
  return route;
}

export function App() {
  const [session, setSession] = useState(loadSession);
  const hashRoute = useRoute();
  if (!session) {
    return (
      <SignIn
        onSignedIn={(next) => {
          saveSession(next);
          setSession(next);
        }}
      />
    );
  }
  const route = routeFor(hashRoute, session);
  const signOut = () => {
    forgetSession();
    setSession(null);
    location.hash = '';
  };
  return (
    <>
      <Nav route={route} session={session} onSignOut={signOut} />
      <main id="main">
        {route.screen === 'orgs' ? (
          <Orgs />
        ) : (
          <>
            <p class="breadcrumb">
              Workspace <strong>{route.org}/{route.ws}</strong>
            </p>
            <Lazy screen={route.screen} props={{ org: route.org, ws: route.ws, entity: route.entity }} />
          </>
        )}
      </main>
    </>
  );
}
