// Each page has its own URL (docs/dashboard.md#pages): the path picks the page, the query keeps its filters,
// so deep links and reloads land where the user was.
import { signal } from '@preact/signals';

export const location = signal(new URL(window.location.href));

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  location.value = new URL(window.location.href);
}

window.addEventListener('popstate', () => (location.value = new URL(window.location.href)));

/** The page's name: /dashboard/leads → "leads", /dashboard/ → "". */
export const pageName = (): string => location.value.pathname.replace(/^\/dashboard\/?/, '').split('/')[0] ?? '';

/** The record id of a record page: /dashboard/leads/lead_… → "lead_…", else "". */
export function recordId(): string {
  const segment = location.value.pathname.replace(/^\/dashboard\/?/, '').split('/')[1] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a broken %-escape: the page then says there is no such record
  }
}

export const query = (name: string): string => location.value.searchParams.get(name) ?? '';

/** Sets (or clears) query parameters of the current page, replacing the history entry. */
export function setQuery(values: Record<string, string>): void {
  const url = new URL(location.value.href);
  for (const [k, v] of Object.entries(values)) {
    if (v) url.searchParams.set(k, v);
    else url.searchParams.delete(k);
  }
  navigate(url.pathname + url.search, true);
}
