// What the command menu lists (tested in test/unit/web-board.test.ts): the pages and actions
// ("New lead") whose name matches what was typed, and records found by the API's `q`, each with a
// line that tells two records of the same name apart (a lead's company, a deal's value and stage).
import { optionLabel, type ResourceSpec } from '../records/describe.js';
import { formatMoney } from '../records/format.js';

export interface CommandResult {
  /** Unique within one list of results (the option's DOM id is made from it). */
  key: string;
  /** The group heading: "Pages", "Actions", "Leads", "Clients", "Deals", "Invoices". */
  group: string;
  label: string;
  detail: string;
  href: string;
  /** A page outside the dashboard's own router (the API reference): a full page load. */
  external?: boolean;
}

export interface PageLink {
  name: string;
  href: string;
  external?: boolean;
}

/**
 * Pages whose name contains what was typed, case and accents ignored; all of them when nothing
 * is typed, so the menu is also a keyboard way to go anywhere.
 */
export function matchPages(pages: readonly PageLink[], typed: string): CommandResult[] {
  return matchLinks('Pages', pages, typed);
}

/** Things to do rather than places to go ("New lead": a link that opens a form), matched as pages are. */
export function matchActions(actions: readonly PageLink[], typed: string): CommandResult[] {
  return matchLinks('Actions', actions, typed);
}

function matchLinks(group: string, links: readonly PageLink[], typed: string): CommandResult[] {
  const wanted = fold(typed.trim());
  return links
    .filter((p) => fold(p.name).includes(wanted))
    .map((p) => ({
      key: `${group}:${p.href}`,
      group,
      label: p.name,
      detail: p.external ? 'Leaves the dashboard' : '',
      href: p.href,
      ...(p.external ? { external: true } : {}),
    }));
}

const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A record as a result: its name, a line that says which one it is, its page. */
export function recordResult(spec: ResourceSpec, record: Record<string, any>): CommandResult {
  return {
    key: `${spec.name}:${record.id}`,
    group: spec.plural,
    label: spec.title(record),
    detail: recordDetail(spec, record),
    href: `/dashboard/${spec.name}/${encodeURIComponent(record.id)}`,
  };
}

function recordDetail(spec: ResourceSpec, r: Record<string, any>): string {
  const enumLabel = (key: string) => {
    const field = spec.fields.find((f) => f.key === key);
    return field ? optionLabel(field, r[key]) : String(r[key] ?? '');
  };
  switch (spec.name) {
    case 'leads':
      return [r.company, r.email, enumLabel('status')].filter(Boolean).join(' · ');
    case 'clients':
      return [r.email, r.phone].filter(Boolean).join(' · ');
    case 'deals':
      return [formatMoney(r.value, r.currency), enumLabel('stage')].join(' · ');
    case 'invoices':
      return [formatMoney(r.total, r.currency), enumLabel('status')].join(' · ');
  }
}
