import type { ComponentType } from 'preact';
import { useEffect } from 'preact/hooks';
import { api, can, me } from './api.js';
import { connectLive } from './live.js';
import { AssistantButton, AssistantPanel, mayUseAssistant, useAssistantShortcut } from './assistant/panel.js';
import { panelOpen } from './assistant/session.js';
import { CommandMenuButton, CommandMenuHost } from './command-menu/command-menu.js';
import { ConfirmHost } from './components/confirm.js';
import { Link } from './components/link.js';
import { RESOURCES } from './records/resources/index.js';
import { location, pageName } from './router.js';
import { Overview } from './pages/overview.js';
import { Leads } from './pages/leads.js';
import { Clients } from './pages/clients.js';
import { Deals } from './pages/deals.js';
import { Invoices } from './pages/invoices.js';
import { Fields } from './pages/fields.js';
import { ApiKeys } from './pages/api-keys.js';
import { OAuthApps } from './pages/oauth-apps.js';
import { Webhooks } from './pages/webhooks.js';
import { Events } from './pages/events.js';
import { Logs } from './pages/logs.js';
import { Usage } from './pages/usage.js';
import { Sandbox } from './pages/sandbox.js';

/** The pages, their URLs and their link names, exactly as docs/dashboard.md#pages lists them. */
const PAGES: [path: string, name: string, page: ComponentType][] = [
  ['', 'Overview', Overview],
  ['leads', 'Leads', Leads],
  ['clients', 'Clients', Clients],
  ['deals', 'Deals', Deals],
  ['invoices', 'Invoices', Invoices],
  ['fields', 'Fields', Fields],
  ['api-keys', 'API keys', ApiKeys],
  ['oauth-apps', 'OAuth apps', OAuthApps],
  ['webhooks', 'Webhooks', Webhooks],
  ['events', 'Events', Events],
  ['logs', 'Logs', Logs],
  ['usage', 'Usage', Usage],
  ['sandbox', 'Sandbox', Sandbox],
];

/** Pages a session without their scope does not list (their URL still says which scope is missing). */
const PAGE_SCOPES: Record<string, string> = { fields: 'fields:read' };
const listed = ([path]: (typeof PAGES)[number]): boolean => !PAGE_SCOPES[path] || can(PAGE_SCOPES[path]);

/** What the command menu offers besides records: every page, the pipeline and the API reference. */
const menuPages = () => [
  ...PAGES.filter(listed).map(([path, name]) => ({ name, href: `/dashboard/${path}` })),
  { name: 'Deals board', href: '/dashboard/deals?view=board' },
  { name: 'API reference', href: '/docs', external: true },
];

/** "New lead" and the like, for the command menu: each opens its list page's create form (`?new=1`). */
const createActions = () =>
  Object.values(RESOURCES)
    .filter((spec) => can(`${spec.scope}:write`))
    .map((spec) => ({ name: `New ${spec.singular}`, href: `/dashboard/${spec.name}?new=1` }));

async function signOut() {
  await api('DELETE', '/dashboard/session');
  me.value = null;
}

export function Layout() {
  useEffect(connectLive, []); // one live stream for every page, closed on sign-out
  useAssistantShortcut();
  void location.value; // re-render on navigation
  const current = pageName();
  const found = PAGES.find(([path]) => path === current);
  const Page = found?.[2];
  return (
    <div class={panelOpen.value ? 'layout with-assistant' : 'layout'}>
      <nav aria-label="Main">
        <p class="brand">crm</p>
        <CommandMenuButton />
        <AssistantButton />
        <ul>
          {PAGES.filter(listed).map(([path, name]) => (
            <li key={path}>
              <Link href={`/dashboard/${path}`} aria-current={path === current ? 'page' : undefined}>
                {name}
              </Link>
            </li>
          ))}
        </ul>
        <button type="button" class="sign-out" onClick={() => void signOut()}>
          Sign out
        </button>
      </nav>
      <main>{Page ? <Page key={current} /> : <p>No page here. Pick one from the navigation.</p>}</main>
      {panelOpen.value && mayUseAssistant() && <AssistantPanel />}
      <ConfirmHost />
      <CommandMenuHost pages={menuPages()} actions={createActions()} />
    </div>
  );
}
