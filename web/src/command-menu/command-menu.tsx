// The command menu (docs/dashboard.md#the-command-menu): Ctrl+K, or ⌘K on a Mac, or the sidebar's Search button opens a
// dialog that finds pages and actions ("New lead") by name and records through the API's full-text
// `q` (leads, clients, deals, invoices: the ones this session may read). The input is a combobox
// over a listbox: arrow keys move, Enter opens, Escape closes and gives the focus back to where it
// was.
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { api, can } from '../api.js';
import { Modal } from '../components/dialog.js';
import { RESOURCES } from '../records/resources/index.js';
import { navigate } from '../router.js';
import { matchActions, matchPages, recordResult, type CommandResult, type PageLink } from './results.js';
import './command-menu.css';

const open = signal(false);
/** Records per resource: the menu jumps to a record, the list pages are for browsing. */
const PER_RESOURCE = 5;
/** Typing waits this long, so a word is one search, not one per key. */
const DEBOUNCE_MS = 150;

const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform);
const shortcutText = (): string => (isMac() ? '⌘K' : 'Ctrl K');

/** The visible way in, for the mouse (and a reminder of the shortcut). */
export function CommandMenuButton() {
  return (
    <button type="button" class="command-button" aria-keyshortcuts="Control+K Meta+K" onClick={() => (open.value = true)}>
      <span>Search</span>
      <kbd aria-hidden="true">{shortcutText()}</kbd>
    </button>
  );
}

/** Mounted once in the layout: the shortcut, and the dialog while open. */
export function CommandMenuHost(props: { pages: PageLink[]; actions: PageLink[] }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      // Not over another dialog (a confirmation, a form): that one has the page's attention.
      if (!open.value && document.querySelector('dialog[open]')) return;
      e.preventDefault(); // the browser's own Ctrl+K (search the web) is not what was meant here
      open.value = !open.value;
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return open.value ? <CommandMenu pages={props.pages} actions={props.actions} onClose={() => (open.value = false)} /> : null;
}

/** Records matching `typed`, fetched after a pause; [] while nothing is typed. */
function useRecordSearch(typed: string): { records: CommandResult[]; searching: boolean } {
  const [records, setRecords] = useState<CommandResult[]>([]);
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    const q = typed.trim();
    setRecords([]);
    if (!q) return setSearching(false);
    setSearching(true);
    let current = true;
    const timer = setTimeout(() => {
      const specs = Object.values(RESOURCES).filter((spec) => can(`${spec.scope}:read`));
      // Newest first: the record just made or imported is the one most often looked for.
      const params = new URLSearchParams({ q: q.slice(0, 200), limit: String(PER_RESOURCE), order: 'desc' });
      void Promise.all(
        specs.map((spec) =>
          api<{ data: Record<string, any>[] }>('GET', `${spec.path}?${params}`).then(
            (page) => page.data.map((r) => recordResult(spec, r)),
            () => [], // a query one list cannot take (or a scope it lacks) leaves the others
          ),
        ),
      ).then((groups) => {
        if (!current) return; // a newer search has started: its results, not these
        setRecords(groups.flat());
        setSearching(false);
      });
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [typed]);
  return { records, searching };
}

function CommandMenu(props: { pages: PageLink[]; actions: PageLink[]; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const { records, searching } = useRecordSearch(typed);
  const results = [...matchPages(props.pages, typed), ...matchActions(props.actions, typed), ...records];
  const chosen = results[Math.min(active, results.length - 1)];
  const optionId = (r: CommandResult) => `command-option-${results.indexOf(r)}`;

  useEffect(() => setActive(0), [typed, records]);
  useEffect(() => {
    if (chosen) document.getElementById(optionId(chosen))?.scrollIntoView({ block: 'nearest' });
  }, [chosen?.key]);

  const openResult = (r: CommandResult) => {
    props.onClose();
    if (r.external) window.location.assign(r.href);
    else navigate(r.href);
  };
  const onKey = (e: KeyboardEvent) => {
    const n = results.length;
    if (e.key === 'ArrowDown' && n) setActive((Math.min(active, n - 1) + 1) % n);
    else if (e.key === 'ArrowUp' && n) setActive((Math.min(active, n - 1) - 1 + n) % n);
    else if (e.key === 'Enter' && chosen) openResult(chosen);
    else return;
    e.preventDefault();
  };

  const groups = [...new Set(results.map((r) => r.group))];
  const status = searching
    ? 'Searching…'
    : typed.trim() && results.length === 0
      ? `Nothing matches ${typed.trim()}.`
      : `${results.length} ${results.length === 1 ? 'result' : 'results'}`;
  return (
    <Modal labelledBy="command-label" onCancel={props.onClose}>
      <div class="command-menu">
        <label id="command-label" for="command-input" class="visually-hidden">
          Search records and pages
        </label>
        <input
          id="command-input"
          data-autofocus
          type="text"
          role="combobox"
          aria-expanded={results.length > 0 ? 'true' : 'false'}
          aria-controls="command-results"
          aria-autocomplete="list"
          aria-activedescendant={chosen ? optionId(chosen) : undefined}
          autoComplete="off"
          spellcheck={false}
          placeholder="Search leads, clients, deals, invoices, pages and actions…"
          value={typed}
          onInput={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={onKey}
        />
        <div id="command-results" role="listbox" aria-label="Results" class="command-results">
          {groups.map((group) => (
            <div key={group} role="group" aria-label={group}>
              <div class="command-group" aria-hidden="true">
                {group}
              </div>
              {results
                .filter((r) => r.group === group)
                .map((r) => (
                  <div
                    key={r.key}
                    id={optionId(r)}
                    role="option"
                    aria-selected={r === chosen ? 'true' : 'false'}
                    class="command-option"
                    onMouseMove={() => r !== chosen && setActive(results.indexOf(r))}
                    onClick={() => openResult(r)}
                  >
                    <span class="command-option-label" title={r.label}>
                      {r.label}
                    </span>
                    {r.detail && <span class="command-option-detail">{r.detail}</span>}
                  </div>
                ))}
            </div>
          ))}
        </div>
        <p class="command-foot">
          <span role="status">{status}</span>
          <span aria-hidden="true">↑↓ move · Enter open · Esc close</span>
        </p>
      </div>
    </Modal>
  );
}
