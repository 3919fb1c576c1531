// The assistant panel's state (docs/dashboard.md#the-assistant): whether it is open, the provider's
// status, the conversation on screen, and the actions that change them: ask, Run or Cancel a
// card, open a stored conversation, start a new one. Kept outside the components, so a turn goes
// on streaming while the panel is closed or the page changes.
import { signal } from '@preact/signals';
import type { AssistantConversation, AssistantStatus, AssistantStreamEvent } from '../../../src/schemas/assistant.js';
import { api, ApiProblem } from '../api.js';
import { turnProblem } from './problems.js';
import { streamTurn } from './stream.js';
import { answerCard, applyEvent, type Entry, errorEntry, fromTranscript, settle } from './transcript.js';

export const panelOpen = signal(false);
/** undefined until asked; a string when the status could not be read. */
export const status = signal<AssistantStatus | string | undefined>(undefined);
export const view = signal<'chat' | 'history'>('chat');
export const conversationId = signal<string | null>(null);
export const entries = signal<Entry[]>([]);
/** A turn is streaming: Send waits. */
export const busy = signal(false);
/** What is typed and not sent yet; kept while the panel is closed. */
export const draft = signal('');
/** The polite live region's text: said once a turn ends, not per word. */
export const announcement = signal('');
/** A card that has just arrived, for the panel to give the focus to (once). */
export const arrivedCard = signal<string | null>(null);

// The tab remembers the open panel and its conversation, so a reload comes back to them (the id is
// no secret: reading the conversation takes this session's credential).
const STORAGE_KEY = 'crm.assistant';

function remember(): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ open: panelOpen.value, conversation: conversationId.value }));
  } catch {
    // Storage refused (a private window's quota): the panel works, a reload starts afresh.
  }
}

export function restore(): void {
  let saved: { open?: boolean; conversation?: string | null } = {};
  try {
    saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
  } catch {
    saved = {};
  }
  if (saved.open) setOpen(true);
  if (typeof saved.conversation === 'string') void openConversation(saved.conversation, true);
}

/** Sign-out: nothing of this session's conversation stays on screen or in the tab for the next one. */
export function forget(): void {
  newConversation();
  panelOpen.value = false;
  status.value = undefined;
  draft.value = '';
  announcement.value = '';
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing was kept
  }
}

export function setOpen(open: boolean): void {
  panelOpen.value = open;
  if (open && status.value === undefined) void loadStatus();
  remember();
}

export async function loadStatus(): Promise<void> {
  try {
    status.value = await api<AssistantStatus>('GET', '/v1/assistant');
  } catch (error) {
    status.value = error instanceof ApiProblem ? error.message : 'The sandbox did not answer.';
  }
}

/** The question box, once the panel has drawn it (after a change of view). */
export const focusInputSoon = (): void => void setTimeout(() => document.getElementById('assistant-input')?.focus());

let current: AbortController | null = null;

/** Starts afresh: the turn on screen (if any) stops being read, the conversation stays in the history. */
export function newConversation(): void {
  current?.abort();
  current = null;
  busy.value = false;
  conversationId.value = null;
  entries.value = [];
  view.value = 'chat';
  announcement.value = 'New conversation.';
  remember();
}

export async function openConversation(id: string, quiet = false): Promise<void> {
  current?.abort();
  current = null;
  busy.value = false;
  view.value = 'chat';
  try {
    const conversation = await api<AssistantConversation>('GET', `/v1/assistant/conversations/${encodeURIComponent(id)}`);
    conversationId.value = conversation.id;
    entries.value = fromTranscript(conversation.items ?? [], conversation.pending_confirmations ?? []);
    if (!quiet) announcement.value = `Opened the conversation ${conversation.title}.`;
  } catch (error) {
    conversationId.value = null;
    entries.value = quiet ? [] : [problemEntry(error)];
  }
  remember();
}

export async function ask(text: string): Promise<void> {
  const content = text.trim();
  if (!content || busy.value) return;
  draft.value = '';
  entries.value = [...entries.value, { kind: 'user', key: `u${Date.now()}`, text: content }];
  const body = { content, ...(conversationId.value ? { conversation_id: conversationId.value } : {}) };
  const failed = await turn('/v1/assistant/messages', body);
  // Nothing came back: the question goes back into the box, ready to send again.
  if (failed && !draft.value) draft.value = content;
}

/** Run (approve) or Cancel a proposed write, and stream the rest of the turn. */
export async function answer(confirmationId: string, approve: boolean): Promise<void> {
  if (busy.value) return;
  entries.value = answerCard(entries.value, confirmationId, approve ? 'sending-run' : 'sending-cancel');
  const failed = await turn(`/v1/assistant/confirmations/${encodeURIComponent(confirmationId)}`, { approve });
  if (failed instanceof ApiProblem && failed.code === 'conflict' && conversationId.value) {
    await openConversation(conversationId.value, true);
    entries.value = [...entries.value, problemEntry(failed)];
    return;
  }
  // The sandbox puts an answer whose turn failed back to pending: so does the card, to be sent again.
  entries.value = answerCard(entries.value, confirmationId, failed ? 'pending' : approve ? 'approved' : 'cancelled');
}

/** One streamed request; resolves with what went wrong, or undefined when the turn ended as it should. */
async function turn(path: string, body: unknown): Promise<unknown> {
  const controller = new AbortController();
  current = controller;
  busy.value = true;
  announcement.value = '';
  let ended = false;
  let failure: unknown;
  const onEvent = (event: AssistantStreamEvent) => {
    if (current !== controller) return;
    if (event.type === 'conversation' && event.conversation_id) {
      conversationId.value = event.conversation_id;
      remember();
    }
    if (event.type === 'done' || event.type === 'error') ended = true;
    if (event.type === 'confirmation_required' && event.confirmation) arrivedCard.value = event.confirmation.id;
    entries.value = applyEvent(entries.value, event);
    if (event.type === 'error') {
      failure = new ApiProblem(502, event.code ?? 'error', event.detail ?? 'The assistant stopped.');
      entries.value = [...entries.value, problemEntry(failure)];
    }
  };
  try {
    await streamTurn(path, body, controller.signal, onEvent);
    if (!ended && current === controller) {
      failure = new Error('ended early');
      entries.value = [...entries.value, problemEntry(failure)];
    }
  } catch (error) {
    if (current !== controller) return undefined; // a new conversation was started: this one is no longer shown
    failure = error;
    if (error instanceof ApiProblem && error.code === 'assistant_not_configured') void loadStatus();
    entries.value = [...entries.value, problemEntry(error)];
  }
  if (current !== controller) return undefined;
  current = null;
  busy.value = false;
  entries.value = settle(entries.value);
  announcement.value = summary(entries.value);
  return failure;
}

function problemEntry(error: unknown): Entry {
  const { message, detail } = turnProblem(error);
  return errorEntry(message, detail);
}

/** What the live region says when a turn ends: the answer, a card waiting, or the problem. */
function summary(list: readonly Entry[]): string {
  const last = list.at(-1);
  if (!last) return '';
  if (last.kind === 'error') return `The assistant could not answer: ${last.message}`;
  if (last.kind === 'step' && last.card?.answer === 'pending') return `The assistant asks you to confirm: ${last.card.confirmation.summary}`;
  if (last.kind === 'answer') return `The assistant answered: ${last.text}`;
  return 'The assistant is done.';
}
