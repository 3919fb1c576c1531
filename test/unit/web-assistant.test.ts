import { describe, expect, it } from 'vitest';
import { crmTools } from '../../src/mcp/catalog.js';
import type { AssistantConfirmation, AssistantStreamEvent } from '../../src/schemas/assistant.js';
import { findMentions, nameAtEnd, withoutEmphasis } from '../../web/src/assistant/mentions.js';
import { parseEvents } from '../../web/src/assistant/stream.js';
import { keyArguments, TOOL_WORDS } from '../../web/src/assistant/tools.js';
import { answerCard, applyEvent, type Entry, fromTranscript, pendingCards, settle } from '../../web/src/assistant/transcript.js';

/** The assistant panel's pure parts (web/src/assistant): tool words, record mentions, the event stream, the transcript. */

describe('tool words', () => {
  it('name every tool of the catalog by its own title, and know which ones only read', () => {
    const catalog = crmTools({ call: () => Promise.reject(new Error('not called')) });
    expect(Object.keys(TOOL_WORDS).sort()).toEqual(catalog.map((t) => t.name).sort());
    for (const tool of catalog) {
      expect(TOOL_WORDS[tool.name], tool.name).toMatchObject({ title: tool.title, read: tool.kind === 'read' });
    }
  });

  it('say which call it was by its key arguments', () => {
    expect(keyArguments('search_clients', { q: 'acme', limit: 50 })).toEqual({ text: 'for “acme”' });
    expect(keyArguments('create_deal', { title: 'Acme rollout', stage: 'proposal', client_id: 'cli_01ABC' })).toEqual({
      text: '“Acme rollout”',
      client: 'cli_01ABC',
    });
    expect(keyArguments('create_lead', { first_name: 'Ada', last_name: 'Lovelace' })).toEqual({ text: '“Ada Lovelace”' });
    expect(keyArguments('move_deal_stage', { id: 'deal_01ABC', stage: 'lead_in' })).toEqual({ record: 'deal_01ABC', text: 'to Lead in' });
    expect(keyArguments('list_deals', { stage: 'proposal' })).toEqual({ text: 'in Proposal' });
    // An id of something the dashboard has no page for is not a record to name.
    expect(keyArguments('get_event', { id: 'evt_01ABC' })).toEqual({ text: '' });
  });
});

describe('record mentions', () => {
  it('find ids, the parentheses around them left out', () => {
    const { mentions, rest } = findMentions('Acme GmbH (cli_01J8ABCDEF) has deal_01J8XYZW and (ID: inv_01J8QQQQ).', true);
    expect(mentions).toEqual([
      { before: 'Acme GmbH', id: 'cli_01J8ABCDEF', resource: 'clients', parenthesized: true },
      { before: ' has ', id: 'deal_01J8XYZW', resource: 'deals', parenthesized: false },
      { before: ' and', id: 'inv_01J8QQQQ', resource: 'invoices', parenthesized: true },
    ]);
    expect(rest).toBe('.');
  });

  it('wait for an id at the end of a streaming answer, which may not be whole yet', () => {
    expect(findMentions('See Acme (cli_01J8AB', false)).toEqual({ mentions: [], rest: 'See Acme (cli_01J8AB' });
    expect(findMentions('See Acme (cli_01J8AB', true).mentions).toHaveLength(1);
    expect(findMentions('no ids: client_1, mycli_0123456', true).mentions).toEqual([]);
  });

  it('find the name the answer already wrote before the id', () => {
    expect(nameAtEnd('Found Acme GmbH', 'Acme GmbH')).toEqual({ lead: 'Found ', name: 'Acme GmbH', trail: '' });
    expect(nameAtEnd('Created “acme rollout”', 'Acme rollout')).toEqual({ lead: 'Created “', name: 'acme rollout', trail: '”' });
    expect(nameAtEnd('the client', 'Acme GmbH')).toBeNull();
    expect(nameAtEnd('MegaAcme', 'Acme')).toBeNull();
    expect(withoutEmphasis('**Acme GmbH** (cli_1) and __Beta__')).toBe('Acme GmbH (cli_1) and Beta');
  });
});

describe('the event stream', () => {
  it('reads whole events only, however the bytes are cut', () => {
    const body = 'event: text\ndata: {"type":"text","delta":"Hel"}\n\n: a comment\n\nevent: text\r\ndata: {"type":"text","delta":"lo"}\r\n\r\nevent: do';
    const { events, rest } = parseEvents(body);
    expect(events).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
    ]);
    expect(rest).toBe('event: do');
  });
});

const confirmation = (over: Partial<AssistantConfirmation> = {}): AssistantConfirmation => ({
  id: 'conf_1',
  object: 'assistant_confirmation',
  conversation_id: 'conv_1',
  tool: 'create_deal',
  title: 'Create a deal',
  arguments: { title: 'Acme rollout' },
  summary: 'Create a deal “Acme rollout”',
  destructive: false,
  status: 'pending',
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const run = (events: AssistantStreamEvent[], start: Entry[] = []) => events.reduce<Entry[]>(applyEvent, start);
const kinds = (entries: Entry[]) => entries.map((e) => (e.kind === 'step' ? `step:${e.state}${e.card ? `:${e.card.answer}` : ''}` : e.kind));

describe('the transcript', () => {
  it('joins the words of an answer, shows a read as a step with its result, and a write as a card on its step', () => {
    const entries = run([
      { type: 'conversation', conversation_id: 'conv_1' },
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'look.' },
      { type: 'tool_call', tool_call_id: 'c1', tool: 'search_clients', arguments: { q: 'acme' }, read_only: true },
      { type: 'tool_result', tool_call_id: 'c1', tool: 'search_clients', result: { data: [] }, is_error: false },
      { type: 'tool_call', tool_call_id: 'c2', tool: 'create_deal', arguments: { title: 'Acme rollout' }, read_only: false },
      { type: 'confirmation_required', tool: 'create_deal', confirmation: confirmation() },
      { type: 'done', conversation_id: 'conv_1', status: 'awaiting_confirmation' },
    ]);
    expect(kinds(entries)).toEqual(['answer', 'step:done', 'step:waiting:pending']);
    expect(entries[0]).toMatchObject({ text: 'Let me look.', streaming: false });
    expect(pendingCards(entries).map((c) => c.confirmation.id)).toEqual(['conf_1']);

    // Run: the result comes back for the call the card is on.
    const running = answerCard(entries, 'conf_1', 'sending-run');
    const after = run(
      [
        { type: 'tool_result', tool_call_id: 'c2', tool: 'create_deal', result: { id: 'deal_1' }, is_error: false },
        { type: 'text', delta: 'Created.' },
      ],
      running,
    );
    expect(kinds(answerCard(settle(after), 'conf_1', 'approved'))).toEqual(['answer', 'step:done', 'step:done:approved', 'answer']);
  });

  it('a cancelled write is cancelled, not failed; a read the turn never finished stops spinning', () => {
    const asked = run([
      { type: 'tool_call', tool_call_id: 'c1', tool: 'delete_deal', arguments: { id: 'deal_1' }, read_only: false },
      { type: 'confirmation_required', tool: 'delete_deal', confirmation: confirmation({ tool: 'delete_deal', arguments: { id: 'deal_1' } }) },
    ]);
    const cancelled = run(
      [{ type: 'tool_result', tool_call_id: 'c1', tool: 'delete_deal', result: 'Cancelled: not run.', is_error: true }],
      answerCard(asked, 'conf_1', 'sending-cancel'),
    );
    expect(kinds(cancelled)).toEqual(['step:cancelled:sending-cancel']);
    const broken = settle(
      run([
        { type: 'tool_call', tool_call_id: 'c9', tool: 'list_leads', arguments: {}, read_only: true },
        { type: 'text', delta: 'Part' },
      ]),
    );
    expect(kinds(broken)).toEqual(['step:stopped', 'answer']);
    expect(broken[1]).toMatchObject({ streaming: false });
  });

  it('a stored conversation: questions, answers, steps, and the card still waiting for Run', () => {
    const item = { text: null, tool: null, tool_call_id: null, arguments: null, result: null, is_error: null };
    const entries = fromTranscript(
      [
        { ...item, type: 'user', text: 'Add two leads' },
        {
          ...item,
          type: 'tool',
          tool: 'create_lead',
          tool_call_id: 'c1',
          arguments: { first_name: 'A' },
          result: 'The user chose Cancel: do not retry.',
          is_error: true,
        },
        { ...item, type: 'tool', tool: 'create_lead', tool_call_id: 'c2', arguments: { first_name: 'B' } },
        { ...item, type: 'assistant', text: 'Waiting.' },
      ],
      [confirmation({ tool: 'create_lead', arguments: { first_name: 'B' } })],
    );
    expect(kinds(entries)).toEqual(['user', 'step:cancelled', 'step:waiting:pending', 'answer']);
  });
});
