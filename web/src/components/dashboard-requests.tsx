// "Hide dashboard requests" on the Logs and Usage pages (docs/dashboard.md#the-request-log). The dashboard's own requests
// run under the signed-in key: without this, opening a page fills the log and the usage counts with
// the dashboard's reads, and an app's requests are hard to find among them. Hidden by default: what
// a developer looks for here is what their integration did (Stripe's request logs do not list its
// dashboard's page loads either); unticked, they show, marked "Dashboard". One choice for both pages,
// remembered in this browser.
import { effect, signal } from '@preact/signals';

const STORAGE_KEY = 'crm.show-dashboard-requests';

function stored(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) !== '1';
  } catch {
    return true; // storage refused (a privacy setting): the default
  }
}

export const hideDashboardRequests = signal(stored());

effect(() => {
  const hide = hideDashboardRequests.value;
  try {
    if (hide) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, '1');
  } catch {
    // not remembered: the choice still holds until the page is reloaded
  }
});

/** The checkbox; the page asks the API with `source=api` while it is ticked. */
export function HideDashboardRequests() {
  return (
    <label class="check">
      <input type="checkbox" checked={hideDashboardRequests.value} onChange={(e) => (hideDashboardRequests.value = e.currentTarget.checked)} /> Hide dashboard
      requests
    </label>
  );
}

/** The mark a request the dashboard made carries in a table. */
export function DashboardBadge() {
  return <span class="badge badge-dashboard">Dashboard</span>;
}
