// This session's earlier conversations (GET /v1/assistant/conversations, the latest first; the
// sandbox keeps them 30 days). Opening one shows it as it was, with any write still waiting for Run.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AssistantConversation } from '../../../src/schemas/assistant.js';
import { api, ApiProblem } from '../api.js';
import { when } from '../components/table.js';
import { conversationId, focusInputSoon, openConversation, view } from './session.js';

const PAGE = 20;

interface Page {
  data: AssistantConversation[];
  next_cursor: string | null;
}

export function History() {
  const [list, setList] = useState<AssistantConversation[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  const load = async (after: string | null) => {
    try {
      const page = await api<Page>('GET', `/v1/assistant/conversations?limit=${PAGE}${after ? `&cursor=${encodeURIComponent(after)}` : ''}`);
      setList((before) => [...(after ? (before ?? []) : []), ...page.data]);
      setCursor(page.next_cursor);
      setProblem('');
    } catch (error) {
      setProblem(error instanceof ApiProblem ? error.message : 'The sandbox did not answer.');
    }
  };
  useEffect(() => {
    heading.current?.focus();
    void load(null);
  }, []);

  return (
    <div class="assistant-history">
      <div class="assistant-history-head">
        <h3 ref={heading} tabIndex={-1}>
          Conversations
        </h3>
        <button
          type="button"
          class="quiet"
          onClick={() => {
            view.value = 'chat';
            focusInputSoon();
          }}
        >
          Back to the conversation
        </button>
      </div>
      {problem && (
        <p class="error" role="alert">
          {`The conversations could not be loaded: ${problem}`}
        </p>
      )}
      {list === null && !problem && <p class="muted">Loading…</p>}
      {list?.length === 0 && <p class="muted">No conversations yet. They are kept for 30 days.</p>}
      {list && list.length > 0 && (
        <ul class="assistant-history-list">
          {list.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                class="assistant-history-item"
                aria-current={c.id === conversationId.value ? 'true' : undefined}
                onClick={() => {
                  void openConversation(c.id).then(focusInputSoon);
                }}
              >
                <span class="assistant-history-title">{c.title}</span>
                <span class="assistant-history-when">{when(c.updated_at)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" onClick={() => void load(cursor)}>
          Show more
        </button>
      )}
    </div>
  );
}
