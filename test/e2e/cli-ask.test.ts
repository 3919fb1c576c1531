import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp } from '../helpers/app.js';
import { runCrm, runCrmOnTerminal, spawnCrm } from '../helpers/cli-process.js';
import { aClient } from '../helpers/factories.js';
import { type FakeProvider, startFakeProvider } from '../helpers/fake-model-provider.js';
import { type ApiClient, apiClient, type RunningSandbox, startSandboxProcess } from '../helpers/sandbox.js';

/**
 * `crm ask` as a user runs it: bin/crm.js against a sandbox process whose assistant talks to the
 * scripted model provider (test/helpers/fake-model-provider.ts) started here. Effects are checked
 * through the REST API.
 */
const PROVIDER_KEY = 'sk-fake-provider-key-cli';

let fake: FakeProvider;
let sandbox: RunningSandbox;
let api: ApiClient;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: PROVIDER_KEY });
  sandbox = await startSandboxProcess(['--no-seed'], {
    env: {
      CRM_ASSISTANT_URL: `${fake.url}/v1`,
      CRM_ASSISTANT_MODEL: 'fake-model',
      CRM_ASSISTANT_API_KEY: PROVIDER_KEY,
      CRM_ASSISTANT_TIMEOUT_MS: '10000',
    },
  });
  api = apiClient(sandbox);
  env = { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey };
});
afterAll(async () => {
  await fake?.close(); // first: it ends the model call the Ctrl+C test left hanging, which the sandbox would wait out
  await sandbox?.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const ask = (args: string[], input?: string) => runCrm(['ask', ...args], env, input === undefined ? {} : { input });
const dealsOf = async (clientId: string) => (await api.get(`/v1/deals?client_id=${clientId}`)).body.data as { title: string; value: number }[];
const createDeal = (clientId: string, title: string) => ({
  toolCalls: [{ name: 'create_deal', args: { title, value: 12000, currency: 'EUR', stage: 'proposal', client_id: clientId } }],
});

describe('a read', () => {
  it('streams the answer to stdout, the tool steps to stderr, and exits 0', async () => {
    const acme = await aClient(api, { name: 'Acme Ask GmbH' });
    fake.script([{ text: 'Let me look.', toolCalls: [{ name: 'search_clients', args: { q: 'Acme Ask' } }] }, { text: `Found Acme Ask GmbH (${acme.id}).` }]);
    const run = await ask(['Which', 'clients', 'are', 'called', 'Acme Ask?']);
    expect(run.stderr).not.toMatch(/error/);
    expect(run.code).toBe(0);
    // The answer alone on stdout, its two steps' words on lines of their own around the tool step.
    expect(run.stdout).toBe(`Let me look.\nFound Acme Ask GmbH (${acme.id}).\n`);
    // The arguments as the tool took them, its defaults filled in.
    expect(run.stderr).toMatch(/^→ Search clients \(search_clients .*q="Acme Ask".*\)$/m);
    expect(run.stderr).toContain('✓ Search clients · 1 found');
    const conversation = /conversation (conv_\w+) · continue it: crm ask --conversation conv_\w+/.exec(run.stderr)?.[1];
    expect(conversation).toBeDefined();
    // The question reached the model as one message.
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Which clients are called Acme Ask?');

    // --conversation continues it: the model is sent the earlier turn too.
    fake.script([{ text: 'It is a GmbH.' }]);
    const more = await ask(['--conversation', conversation!, 'What kind of company is it?']);
    expect(more.code).toBe(0);
    expect(more.stdout).toBe('It is a GmbH.\n');
    expect(more.stderr).toContain(`conversation ${conversation}`);
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Which clients are called Acme Ask?');
  });
});

describe('a write', () => {
  it('runs with --yes: the card is shown, the record is created, the rest of the turn streams', async () => {
    const acme = await aClient(api, { name: 'Acme Yes GmbH' });
    fake.script([createDeal(acme.id, 'Acme rollout'), { text: 'The deal is created.' }]);
    const run = await ask(['--yes', 'create a deal for Acme worth €12,000 in proposal']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Create a deal “Acme rollout”: value €12,000.00, stage proposal, client Acme Yes GmbH');
    expect(run.stderr).toContain('Run (--yes)');
    expect(run.stderr).toContain('✓ Create a deal');
    expect(run.stdout).toBe('The deal is created.\n');
    expect(await dealsOf(acme.id)).toMatchObject([{ title: 'Acme rollout', value: 12000 }]);
  });

  it('answered n at the terminal prompt is cancelled: nothing is created, the model is told, exit 0', async () => {
    const acme = await aClient(api, { name: 'Acme No GmbH' });
    fake.script([createDeal(acme.id, 'Never made'), { text: 'Fine, I did not create it.' }]);
    const run = await runCrmOnTerminal(['ask', 'create a deal for Acme No'], env, 'n\n');
    expect(run.output).toContain('Create a deal “Never made”');
    expect(run.output).toContain('Run this? [y/N]');
    expect(run.output).toContain('✗ Create a deal: Cancelled: not run.');
    expect(run.output).toContain('Fine, I did not create it.');
    expect(run.code).toBe(0);
    expect(await dealsOf(acme.id)).toEqual([]);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toMatch(/Cancel/);
  });

  it('answered y at the terminal prompt runs', async () => {
    const acme = await aClient(api, { name: 'Acme Prompt GmbH' });
    fake.script([createDeal(acme.id, 'Asked and made'), { text: 'Created.' }]);
    const run = await runCrmOnTerminal(['ask', 'create a deal for Acme Prompt'], env, 'y\n');
    expect(run.output).toContain('Run this? [y/N]');
    expect(run.code).toBe(0);
    expect(await dealsOf(acme.id)).toMatchObject([{ title: 'Asked and made' }]);
  });

  it('without a terminal and without --yes is cancelled, says so, and exits 1', async () => {
    const acme = await aClient(api, { name: 'Acme Script GmbH' });
    fake.script([createDeal(acme.id, 'Unattended'), { text: 'Not created.' }]);
    const run = await ask(['create a deal for Acme Script'], 'y\n'); // stdin is a pipe: never read as an answer
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Cancelled: not run (no terminal to ask; --yes runs writes without asking)');
    expect(run.stderr).toContain('error: The proposed write was cancelled: there was no terminal to ask. Run again with --yes');
    expect(await dealsOf(acme.id)).toEqual([]);
  });
});

describe('--json', () => {
  it('prints the events as JSON Lines, the continuation after --yes included, ending with done', async () => {
    const acme = await aClient(api, { name: 'Acme Json GmbH' });
    fake.script([createDeal(acme.id, 'Json deal'), { text: 'Done it.' }]);
    const run = await ask(['--json', '--yes', 'create a deal for Acme Json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; status?: string; confirmation?: { summary: string } });
    expect(events.map((e) => e.type)).toEqual(['conversation', 'tool_call', 'confirmation_required', 'done', 'conversation', 'tool_result', 'text', 'done']);
    expect(events[2]!.confirmation!.summary).toContain('Json deal');
    expect(events[3]).toMatchObject({ status: 'awaiting_confirmation' });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'complete' });
    expect(await dealsOf(acme.id)).toHaveLength(1);
  });

  it('never asks, even on a terminal: without --yes the write is cancelled and the last line is the error, exit 1', async () => {
    const acme = await aClient(api, { name: 'Acme Json No GmbH' });
    fake.script([createDeal(acme.id, 'Json unasked'), { text: 'Not created.' }]);
    // Nothing typed: a prompt would show its question (and read the end of input as no).
    const run = await runCrmOnTerminal(['ask', '--json', 'create a deal for Acme Json No'], env);
    expect(run.code).toBe(1);
    expect(run.output).not.toContain('Run this?');
    const lines = run.output
      .split('\r\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(lines.find((e) => e.type === 'tool_result')).toMatchObject({ tool: 'create_deal', is_error: true });
    expect(lines.at(-2)).toMatchObject({ type: 'done', status: 'complete' });
    expect(lines.at(-1).error).toMatchObject({ exit_code: 1, message: expect.stringContaining('--yes') });
    expect(await dealsOf(acme.id)).toEqual([]);
  });
});

describe('text from the server', () => {
  it('is shown with its control characters escaped: a record name cannot drive the terminal', async () => {
    const evil = await aClient(api, { name: 'Evil\u001b]0;pwned\u0007 Corp' });
    fake.script([
      { toolCalls: [{ name: 'get_client', args: { id: evil.id } }] },
      { text: 'It is Evil\u001b]0;pwned\u0007 Corp.', ...createDeal(evil.id, 'Evil\u001b[2J deal') },
      { text: 'Created.' },
    ]);
    const run = await ask(['--yes', 'make a deal for the evil client']);
    expect(run.code).toBe(0);
    // NO_COLOR: crm prints no escape of its own either, so none may appear at all.
    expect(run.stdout + run.stderr).not.toMatch(/[\u0007\u001b]/);
    expect(run.stdout).toContain('It is Evil\\x1b]0;pwned\\x07 Corp.');
    expect(run.stderr).toContain('client Evil\\x1b]0;pwned\\x07 Corp'); // the card's summary
    expect(run.stderr).toContain('“Evil\\x1b[2J deal”');
  });
});

describe('failures', () => {
  it('a sandbox without a model provider: how to set one up, exit 1', async () => {
    const bare = await startApp();
    try {
      const run = await runCrm(['ask', 'hello'], { CRM_BASE_URL: bare.baseUrl, CRM_API_KEY: bare.apiKey });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`The assistant of ${bare.baseUrl} has no model provider`);
      expect(run.stderr).toContain('crm sandbox start --assistant-url http://127.0.0.1:11434/v1 --assistant-model llama3.1');
      expect(run.stderr).toContain('CRM_ASSISTANT_URL and CRM_ASSISTANT_MODEL');
    } finally {
      await bare.stop();
    }
  });

  it('a provider failing before the first word is a 502 with what to check, exit 1', async () => {
    fake.script([{ status: 500 }]);
    const run = await ask(['hello']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error: The model provider failed: .*HTTP 500.*502 assistant_provider_unavailable.*--assistant-url/);
  });

  it('an error event mid-stream ends the command with its detail, exit 1, and the conversation to continue', async () => {
    fake.script([{ text: 'Looking.', toolCalls: [{ name: 'list_pipeline_stages', args: {} }] }, { broken: true }]);
    const run = await ask(['what stages are there?']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('Looking.\n');
    expect(run.stderr).toMatch(/error: The assistant stopped: .+ \(assistant_provider_unavailable\)/);
    expect(run.stderr).toMatch(/conversation conv_\w+ · continue it/);
  });

  it('Ctrl+C while the model thinks stops the request and exits 1', async () => {
    fake.script([{ hang: true }]);
    const crm = spawnCrm(['ask', 'think hard'], env);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    crm.child.kill('SIGINT');
    expect(await crm.exited).toBe(1);
    expect(crm.stderr()).toContain('Stopped (Ctrl+C) before the end of the turn');
  });

  it('no question is a usage error (exit 2)', async () => {
    const run = await ask(['  ']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Say what to ask');
  });
});
