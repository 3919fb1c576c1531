import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { allows, session, type Session } from './api.js';
import { navigate, useLocation } from './router.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { EventsPage } from './pages/events.js';
import { LeadsPage } from './pages/leads.js';
import { OverviewPage } from './pages/overview.js';
import { SignInPage } from './pages/sign-in.js';

/** The pages this dashboard has so far, with the scope each needs to show (API.md §11 names). */
const PAGES = [
  { path: '/dashboard/', name: 'Overview', scope: undefined, Page: OverviewPage },
  { path: '/dashboard/leads', name: 'Leads', scope: 'leads:read', Page: LeadsPage },
  { path: '/dashboard/api-keys', name: 'API keys', scope: 'keys:read', Page: ApiKeysPage },
  { path: '/dashboard/events', name: 'Events', scope: 'events:read', Page: EventsPage },
] as const;

/** Trades a `#login=` token from the printed URL for the session cookie, and drops it from the address bar. */
async function signInFromHash(): Promise<void> {
  const match = /^#login=([\w-]+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, '', location.pathname + location.search);
  try {
    await session.signIn({ token: match[1]! });
  } catch {
    // Used or expired: the sign-in page says so below, since the session check finds no session.
  }
}

function App() {
  const url = useLocation();
  const [me, setMe] = useState<Session | undefined>();
  const refresh = () => session.get().then(setMe, () => setMe({ signed_in: false }));
  useEffect(() => {
    signInFromHash().then(refresh);
  }, []);

  if (!me) return <p class="loading">Loading…</p>;
  if (!me.signed_in) return <SignInPage onSignedIn={refresh} />;
  const visible = PAGES.filter((p) => !p.scope || allows(me.scopes, p.scope));
  const current = visible.find((p) => url.pathname === p.path || url.pathname === p.path.replace(/\/$/, '')) ?? visible[0]!;
  const { Page } = current;
  return (
    <div class="layout">
      <header>
        <strong>crm sandbox</strong>
        <span class="muted">{me.base_url}</span>
        <button type="button" onClick={() => session.signOut().then(refresh)}>Sign out</button>
      </header>
      <nav aria-label="Dashboard">
        <ul>
          {visible.map((p) => (
            <li key={p.path}>
              <a href={p.path} aria-current={p === current ? 'page' : undefined} onClick={(e) => (e.preventDefault(), navigate(p.path))}>
                {p.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        <h1>{current.name}</h1>
        <Page scopes={me.scopes ?? []} baseUrl={me.base_url ?? location.origin} url={url} />
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
