// A conversation as the panel draws it (docs/dashboard.md#the-assistant): questions, answers, the
// steps (tool calls) and the confirmation cards of writes. Built from a turn's events as they
// stream, or from a stored conversation (GET /v1/assistant/conversations/{id}); pure, so
// test/unit/web-assistant.test.ts runs it in Node. Every function returns new arrays and objects:
// the panel keeps them in a signal.
import type { AssistantConfirmation, AssistantStreamEvent, AssistantTranscriptItem } from '../../../src/schemas/assistant.js';
import { toolWords } from './tools.js';

/**
 * running: a read under way · waiting: a write the model proposed · done · failed: the API refused
 * it or it broke · cancelled: Cancel was chosen (or another question asked instead) · stopped: the
 * turn ended (an error) before the call had its result.
 */
type StepState = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled' | 'stopped';

/** A write's card: pending until Run or Cancel; `sending` while that answer is on its way. */
export interface Card {
  confirmation: AssistantConfirmation;
  answer: 'pending' | 'sending-run' | 'sending-cancel' | 'approved' | 'cancelled';
}

export interface Step {
  kind: 'step';
  key: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  state: StepState;
  result?: unknown;
  card?: Card;
}

export type Entry =
  | { kind: 'user'; key: string; text: string }
  | { kind: 'answer'; key: string; text: string; streaming: boolean }
  | Step
  | { kind: 'error'; key: string; message: string; detail: string };

let keys = 0;
const nextKey = () => `e${++keys}`;

/** One event of a turn, applied. */
export function applyEvent(entries: readonly Entry[], event: AssistantStreamEvent): Entry[] {
  switch (event.type) {
    case 'text': {
      const last = entries.at(-1);
      if (last?.kind === 'answer' && last.streaming) return [...entries.slice(0, -1), { ...last, text: last.text + (event.delta ?? '') }];
      return [...entries, { kind: 'answer', key: nextKey(), text: event.delta ?? '', streaming: true }];
    }
    case 'tool_call': {
      const args = event.arguments ?? {};
      const read = event.read_only ?? toolWords(event.tool ?? '').read;
      return [
        ...endAnswers(entries),
        { kind: 'step', key: nextKey(), callId: event.tool_call_id ?? '', tool: event.tool ?? '', args, state: read ? 'running' : 'waiting' },
      ];
    }
    case 'confirmation_required':
      return event.confirmation ? attachCard(endAnswers(entries), event.confirmation) : [...entries];
    case 'tool_result':
      return entries.map((e) =>
        e.kind === 'step' && e.callId === event.tool_call_id ? { ...e, state: resultState(e, event.is_error === true, event.result), result: event.result } : e,
      );
    case 'error': // the panel says what went wrong, in its own words (problems.ts)
    case 'done':
      return endAnswers(entries);
    default:
      return [...entries];
  }
}

export const errorEntry = (message: string, detail: string): Entry => ({ kind: 'error', key: nextKey(), message, detail });

/** The turn is over, however it ended: no answer still typing, no read still running. */
export function settle(entries: readonly Entry[]): Entry[] {
  return endAnswers(entries).map((e) => (e.kind === 'step' && e.state === 'running' ? { ...e, state: 'stopped' } : e));
}

function endAnswers(entries: readonly Entry[]): Entry[] {
  return entries.map((e) => (e.kind === 'answer' && e.streaming ? { ...e, streaming: false } : e));
}

/** A cancelled write comes back as an error result: "Cancelled: not run.", or the reason the model was given. */
const CANCELLED = /^(Cancelled|The user )/;

function resultState(step: Step, isError: boolean, result: unknown): StepState {
  if (!isError) return 'done';
  if (step.card?.answer === 'cancelled' || step.card?.answer === 'sending-cancel') return 'cancelled';
  return typeof result === 'string' && CANCELLED.test(result) ? 'cancelled' : 'failed';
}

const sameArgs = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The card goes on the write it is about: the waiting call of that tool, with those arguments if one has them. */
function attachCard(entries: Entry[], confirmation: AssistantConfirmation): Entry[] {
  const waiting = entries.filter((e): e is Step => e.kind === 'step' && e.tool === confirmation.tool && e.state === 'waiting' && !e.card);
  const target = waiting.find((s) => sameArgs(s.args, confirmation.arguments)) ?? waiting.at(-1);
  const card: Card = { confirmation, answer: 'pending' };
  if (!target) {
    return [...entries, { kind: 'step', key: nextKey(), callId: '', tool: confirmation.tool, args: confirmation.arguments, state: 'waiting', card }];
  }
  return entries.map((e) => (e === target ? { ...target, card } : e));
}

/** A card's answer, as the panel sends it (and back to pending when that failed, so it can be sent again). */
export function answerCard(entries: readonly Entry[], confirmationId: string, answer: Card['answer']): Entry[] {
  return entries.map((e) => {
    if (e.kind !== 'step' || e.card?.confirmation.id !== confirmationId) return e;
    const state: StepState = answer === 'cancelled' && e.state === 'waiting' ? 'cancelled' : e.state;
    return { ...e, state, card: { ...e.card, answer } };
  });
}

/** A stored conversation: its items in order, with the writes still waiting for Run as cards. */
export function fromTranscript(items: readonly AssistantTranscriptItem[], pending: readonly AssistantConfirmation[]): Entry[] {
  let entries: Entry[] = items.map((item): Entry => {
    if (item.type === 'tool') {
      const step: Step = { kind: 'step', key: nextKey(), callId: item.tool_call_id ?? '', tool: item.tool ?? '', args: item.arguments ?? {}, state: 'done' };
      if (item.is_error === null && item.result === null) return { ...step, state: 'waiting' };
      return { ...step, state: resultState(step, item.is_error === true, item.result), result: item.result };
    }
    const text = item.text ?? '';
    return item.type === 'user' ? { kind: 'user', key: nextKey(), text } : { kind: 'answer', key: nextKey(), text, streaming: false };
  });
  for (const confirmation of pending) entries = attachCard(entries, confirmation);
  // A write that waited and has no card now was answered without a result being kept (a failed turn): not waiting any more.
  return entries.map((e) => (e.kind === 'step' && e.state === 'waiting' && !e.card ? { ...e, state: 'stopped' } : e));
}

/** The cards still waiting for Run or Cancel. */
export const pendingCards = (entries: readonly Entry[]): Card[] =>
  entries.flatMap((e) => (e.kind === 'step' && e.card && e.card.answer === 'pending' ? [e.card] : []));
