import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../../../test/helpers/fake-model-provider.js';
import { ApiError, ConnectionError, Crm, type AssistantStreamEvent } from '../src/index.js';
import { startSandbox, unique, type Sandbox } from './sandbox.js';

/**
 * crm.assistant through the TypeScript SDK: a sandbox whose assistant talks to the scripted model
 * provider (test/helpers/fake-model-provider.ts), and one without a provider.
 */
let fake: FakeProvider;
let sandbox: Sandbox;
let unconfigured: Sandbox;
let crm: Crm;
beforeAll(async () => {
  fake = await startFakeProvider();
  [sandbox, unconfigured] = await Promise.all([
    startSandbox(['--no-seed', '--assistant-url', `${fake.url}/v1`, '--assistant-model', 'fake-model']),
    startSandbox(['--no-seed']),
  ]);
  crm = new Crm({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });
});
afterAll(async () => {
  // The provider first: a turn still waiting on it (the timeout test) would hold the sandbox's stop.
  await fake?.close();
  await Promise.all([sandbox?.stop(), unconfigured?.stop()]);
});

async function collect(stream: AsyncIterable<AssistantStreamEvent>): Promise<AssistantStreamEvent[]> {
  const events: AssistantStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}
const text = (events: AssistantStreamEvent[]) =>
  events
    .filter((e) => e.type === 'text')
    .map((e) => e.delta)
    .join('');

describe('crm.assistant', () => {
  it('retrieve: the status names the provider and the tools', async () => {
    const status = await crm.assistant.retrieve();
    expect(status).toMatchObject({ configured: true, provider: 'openai', model: 'fake-model' });
    expect(status.tools).toContain('create_lead');
  });

  it('ask: a read streams typed events, its text, and ends with done; the conversation is listed and read back', async () => {
    fake.script([{ text: 'Let me look.', toolCalls: [{ name: 'list_leads', args: {} }] }, { text: 'There are no leads yet, so nothing to show.' }]);
    const events = await collect(crm.assistant.ask('Which leads do I have?'));
    expect(events.map((e) => e.type)).toEqual(['conversation', 'text', 'tool_call', 'tool_result', 'text', 'text', 'text', 'text', 'done']);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ tool: 'list_leads', read_only: true });
    expect(text(events)).toBe('Let me look.There are no leads yet, so nothing to show.');
    const id = events[0]!.conversation_id!;
    expect(events.at(-1)).toEqual({ type: 'done', conversation_id: id, status: 'complete' });

    const listed = [];
    for await (const conversation of crm.assistant.conversations.list()) listed.push(conversation.id);
    expect(listed).toContain(id);
    const conversation = await crm.assistant.conversations.retrieve(id);
    expect(conversation.items?.map((i) => i.type)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('ask then confirm: a write waits for confirm(id, true), then the record exists', async () => {
    const email = `${unique('grace')}@example.com`;
    fake.script([{ toolCalls: [{ name: 'create_lead', args: { first_name: 'Grace', email } }] }, { text: 'Grace is a lead now.' }]);
    const asked = await collect(crm.assistant.ask(`Add Grace (${email}) as a lead`));
    const card = asked.find((e) => e.type === 'confirmation_required')!.confirmation!;
    expect(card).toMatchObject({ tool: 'create_lead', status: 'pending' });
    expect(asked.at(-1)).toMatchObject({ type: 'done', status: 'awaiting_confirmation' });
    expect((await crm.leads.list({ email })).data).toEqual([]);

    const run = await collect(crm.assistant.confirm(card.id, true));
    expect(run.find((e) => e.type === 'tool_result')).toMatchObject({ tool: 'create_lead', is_error: false });
    expect(text(run)).toBe('Grace is a lead now.');
    expect(run.at(-1)).toMatchObject({ type: 'done', status: 'complete' });
    expect((await crm.leads.list({ email })).data.map((l) => l.first_name)).toEqual(['Grace']);
    // Continuing the same conversation: conversation_id goes in the body.
    fake.script([{ text: 'Still here.' }]);
    const more = await collect(crm.assistant.ask('Anything else?', { conversation_id: card.conversation_id }));
    expect(more[0]).toEqual({ type: 'conversation', conversation_id: card.conversation_id });
  });

  it('an error event after the first words is an event, not a throw', async () => {
    fake.script([{ toolCalls: [{ name: 'list_leads', args: {} }] }, { status: 503 }]);
    const events = await collect(crm.assistant.ask('List, then fail'));
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'assistant_provider_unavailable' });
  });

  it('without a provider: the 503 is thrown as ApiError when iteration starts, before any event', async () => {
    const bare = new Crm({ apiKey: unconfigured.apiKey, baseUrl: unconfigured.baseUrl, maxRetries: 0 });
    const stream = bare.assistant.ask('Hello?');
    const seen: AssistantStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'assistant_not_configured' });
    expect(seen).toEqual([]);
  });

  it('events arrive as they are made; the timeout is the wait between them (ConnectionError)', async () => {
    const impatient = new Crm({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, timeout: 2000 });
    fake.script([{ text: 'Let me look.', toolCalls: [{ name: 'list_leads', args: {} }] }, { hang: true }]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of impatient.assistant.ask('List, then think forever')) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(seen).toEqual(['conversation', 'text', 'tool_call', 'tool_result']);
  });

  it('a stream is read once: iterating it again throws instead of asking twice', async () => {
    fake.script([{ text: 'Once.' }]);
    const stream = crm.assistant.ask('Say it once');
    expect(text(await collect(stream))).toBe('Once.');
    await expect(collect(stream)).rejects.toThrow(/read already/);
  });
});
