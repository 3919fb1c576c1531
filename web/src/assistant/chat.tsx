// The conversation on screen and the box to ask in: questions, streamed answers, steps (tool calls)
// and confirmation cards, in order. Enter sends, Shift+Enter starts a new line.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { AnswerText } from './answer-text.js';
import { ConfirmationCard } from './confirmation-card.js';
import { ask, busy, draft, entries } from './session.js';
import { StepRow } from './step.js';
import type { Entry, Step } from './transcript.js';

const EXAMPLES = ['Which deals are in negotiation?', 'Find the client Acme and its open invoices', 'Create a lead for Ada Lovelace at Analytical Engines'];

/** A card shows until its write has a result; then the step's line says what happened. */
const showsCard = (step: Step): boolean => step.card !== undefined && (step.result === undefined || step.card.answer === 'pending');

function EntryView(props: { entry: Entry }) {
  const { entry } = props;
  switch (entry.kind) {
    case 'user':
      return (
        <div class="assistant-question">
          <p class="visually-hidden">You asked:</p>
          <p class="prewrap">{entry.text}</p>
        </div>
      );
    case 'answer':
      return (
        <p class="assistant-answer prewrap">
          <AnswerText text={entry.text} streaming={entry.streaming} />
        </p>
      );
    case 'step':
      return showsCard(entry) ? <ConfirmationCard card={entry.card!} /> : <StepRow step={entry} />;
    case 'error':
      return (
        <div class="assistant-error" role="alert">
          <p class="assistant-error-message">{entry.message}</p>
          {entry.detail && <p class="assistant-error-detail">{entry.detail}</p>}
        </div>
      );
  }
}

/** Keeps the newest words in view while they stream, unless the user has scrolled up to read. */
function useFollow(log: { current: HTMLDivElement | null }, list: readonly Entry[]) {
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const el = log.current;
    if (el && atEnd.current) el.scrollTop = el.scrollHeight;
  }, [list]);
  return () => {
    const el = log.current;
    if (el) atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
  };
}

export function Chat() {
  const log = useRef<HTMLDivElement>(null);
  const list = entries.value;
  const onScroll = useFollow(log, list);
  const last = list.at(-1);
  const typing = last?.kind === 'answer' && last.streaming;
  return (
    <>
      <div class="assistant-log" ref={log} onScroll={onScroll}>
        {list.length === 0 ? (
          <div class="assistant-empty">
            <p>Ask about your clients, leads, deals and invoices, or ask for a change. Nothing is changed until you choose Run.</p>
            <ul class="assistant-examples" aria-label="Examples">
              {EXAMPLES.map((example) => (
                <li key={example}>
                  <button
                    type="button"
                    class="assistant-example"
                    onClick={() => {
                      draft.value = example;
                      document.getElementById('assistant-input')?.focus();
                    }}
                  >
                    {example}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          list.map((entry) => <EntryView key={entry.key} entry={entry} />)
        )}
        {busy.value && !typing && (
          <p class="assistant-working">
            <span class="assistant-dots" aria-hidden="true" />
            Working…
          </p>
        )}
      </div>
      <form
        class="assistant-compose"
        onSubmit={(e) => {
          e.preventDefault();
          void ask(draft.value);
        }}
      >
        <label for="assistant-input" class="visually-hidden">
          Ask the assistant
        </label>
        <textarea
          id="assistant-input"
          rows={2}
          value={draft.value}
          placeholder="Ask about your CRM, or ask for a change…"
          aria-describedby="assistant-hint"
          onInput={(e) => (draft.value = e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
            e.preventDefault();
            void ask(draft.value);
          }}
        />
        <div class="assistant-compose-foot">
          <span id="assistant-hint" class="hint">
            {busy.value ? 'Answering… you can type your next question.' : 'Enter to send · Shift+Enter for a new line'}
          </span>
          <button type="submit" class="primary" disabled={busy.value || !draft.value.trim()}>
            Send
          </button>
        </div>
      </form>
    </>
  );
}
