// The assistant panel (docs/dashboard.md#the-assistant): the navigation's Assistant button, or Ctrl+J
// (⌘J on a Mac), opens it on the right of the page (over it on a narrow window). Not modal: the
// page stays usable beside it. Escape or its close button closes it and gives the focus back to
// what had it. Sessions without the assistant:use scope see neither the button nor the panel.
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { can } from '../api.js';
import { Chat } from './chat.js';
import { History } from './history.js';
import { announcement, focusInputSoon, forget, loadStatus, newConversation, panelOpen, restore, setOpen, status, view } from './session.js';
import { Setup } from './setup.js';
import './assistant.css';

const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform);

/** What had the focus before the panel opened: it gets it back on close. */
let opener: HTMLElement | null = null;
/** The panel was opened by the user (not restored after a reload): its box takes the focus once it is drawn. */
let focusWanted = false;

export const mayUseAssistant = (): boolean => can('assistant:use');

function openPanel(): void {
  opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  focusWanted = true;
  setOpen(true);
}

function closePanel(): void {
  const back = opener?.isConnected ? opener : document.getElementById('assistant-button');
  setOpen(false);
  back?.focus();
  opener = null;
}

export function AssistantButton() {
  if (!mayUseAssistant()) return null;
  const open = panelOpen.value;
  return (
    <button
      type="button"
      id="assistant-button"
      class="command-button assistant-button"
      aria-expanded={open ? 'true' : 'false'}
      aria-controls={open ? 'assistant-panel' : undefined}
      aria-keyshortcuts="Control+J Meta+J"
      onClick={() => (open ? closePanel() : openPanel())}
    >
      <span>Assistant</span>
      <kbd aria-hidden="true">{isMac() ? '⌘J' : 'Ctrl J'}</kbd>
    </button>
  );
}

/** The shortcut, mounted once in the layout (with the panel itself, where the layout puts it). */
export function useAssistantShortcut(): void {
  useEffect(() => {
    if (!mayUseAssistant()) return;
    restore();
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'j' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      if (document.querySelector('dialog[open]')) return; // a confirmation or a form has the page's attention
      e.preventDefault(); // the browser's own Ctrl+J (downloads) is not what was meant here
      const panel = document.getElementById('assistant-panel');
      if (!panelOpen.value) openPanel();
      else if (panel?.contains(document.activeElement)) closePanel();
      else document.getElementById('assistant-input')?.focus(); // open, but the focus was on the page: back to the box
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      forget(); // the layout goes at sign-out
    };
  }, []);
}

export function AssistantPanel() {
  const heading = useRef<HTMLHeadingElement>(null);
  const current = status.value;
  // In the same task as the render (a layout effect), as the command menu does: keys typed right
  // after Ctrl+J land in the box. The box is there before the status is known (most sandboxes
  // have a provider); a question sent without one gets the set-up text.
  useLayoutEffect(() => {
    if (!focusWanted) return;
    focusWanted = false;
    (document.getElementById('assistant-input') ?? heading.current)?.focus();
  }, []);
  // The box went (no provider: the set-up text replaced it): the focus stays in the panel.
  const unconfigured = typeof current === 'object' && !current.configured;
  useEffect(() => {
    if (unconfigured && (document.activeElement === document.body || document.activeElement === null)) heading.current?.focus();
  }, [unconfigured]);

  let body;
  if (typeof current === 'string') {
    body = (
      <div class="assistant-note" role="alert">
        <p>{`The assistant's status could not be read: ${current}`}</p>
        <button type="button" onClick={() => void loadStatus()}>
          Try again
        </button>
      </div>
    );
  } else if (current && !current.configured) body = <Setup />;
  else if (view.value === 'history') body = <History />;
  else body = <Chat />;

  const configured = typeof current !== 'string' && current?.configured !== false;
  return (
    <aside
      id="assistant-panel"
      class="assistant"
      aria-labelledby="assistant-heading"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          closePanel();
        }
      }}
    >
      <header class="assistant-head">
        <h2 id="assistant-heading" ref={heading} tabIndex={-1}>
          Assistant
        </h2>
        {configured && (
          <>
            <button
              type="button"
              class="quiet"
              aria-pressed={view.value === 'history' ? 'true' : 'false'}
              onClick={() => (view.value = view.value === 'history' ? 'chat' : 'history')}
            >
              History
            </button>
            <button
              type="button"
              class="quiet"
              onClick={() => {
                newConversation();
                focusInputSoon();
              }}
            >
              New conversation
            </button>
          </>
        )}
        <button type="button" class="quiet assistant-close" aria-label="Close the assistant" title="Close (Esc)" onClick={closePanel}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {body}
      <p class="visually-hidden" aria-live="polite">
        {announcement.value}
      </p>
    </aside>
  );
}
