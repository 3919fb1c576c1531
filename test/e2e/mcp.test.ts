import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM_BIN, type ApiClient, type RunningSandbox, useSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let api: ApiClient;

useSandbox(['--no-seed'], (s, a) => {
  sandbox = s;
  api = a;
});

async function httpClient(key = sandbox.apiKey): Promise<Client> {
  const client = new Client({ name: 'crm-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

async function stdioClient(key = sandbox.apiKey): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CRM_BIN, 'mcp'],
    env: { ...(process.env as Record<string, string>), CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: key, NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'crm-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;

const EXPECTED_TOOLS = [
  'search_clients',
  'get_client',
  'create_client',
  'update_client',
  'delete_client',
  'add_contact_person',
  'update_contact_person',
  'remove_contact_person',
  'list_leads',
  'get_lead',
  'create_lead',
  'update_lead',
  'delete_lead',
  'convert_lead',
  'list_pipeline_stages',
  'summarize_pipeline',
  'list_deals',
  'get_deal',
  'create_deal',
  'update_deal',
  'move_deal_stage',
  'win_deal',
  'lose_deal',
  'reopen_deal',
  'delete_deal',
  'list_invoices',
  'get_invoice',
  'create_invoice',
  'send_invoice',
  'pay_invoice',
  'void_invoice',
  'list_events',
  'get_event',
  'list_fields',
  'create_field',
  'update_field',
  'delete_field',
];

describe.each([
  ['Streamable HTTP', async () => ({ client: await httpClient(), stderr: () => sandbox.stderr() })],
  ['stdio', stdioClient],
])('MCP over %s', (_name, connect) => {
  let client: Client;
  let stderr: () => string;
  beforeAll(async () => {
    ({ client, stderr } = await connect());
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists every tool with an input schema, a description and accurate annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...EXPECTED_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(10);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      const readOnly = /^(search|get|list|summarize)_/.test(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(readOnly);
      // MCP keeps destructiveHint false for tools that only add: every update, send, pay or delete overwrites.
      const additive = /^(create|add|convert)_/.test(tool.name);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(!readOnly && !additive);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      if (!readOnly) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toContain('idempotency_key');
    }
  });

  it('refuses an argument no tool takes, as the REST API does, and changes nothing', async () => {
    const created = (await call(client, 'create_client', { name: 'Typo Ltd' })).structuredContent;
    const typo = await call(client, 'update_client', { id: created.id, nmae: 'Renamed' });
    expect(typo.isError).toBe(true);
    expect(typo.content[0]!.text).toMatch(/nmae/);
    expect((await api.get(`/v1/clients/${created.id}`)).body.name).toBe('Typo Ltd');
    const readTypo = await call(client, 'list_leads', { stauts: 'new' });
    expect(readTypo.isError).toBe(true);
  });

  it('defines, changes and deletes a custom field, and the REST API sees each step', async () => {
    const key = `mcp_tier_${Date.now().toString(36)}`;
    const created = await call(client, 'create_field', { object: 'client', key, label: 'Tier', type: 'select', options: [{ value: 'gold', label: 'Gold' }] });
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    const id = created.structuredContent.id as string;
    expect((await api.get(`/v1/fields/${id}`)).body).toMatchObject({ key, type: 'select' });
    const listed = await call(client, 'list_fields', { object: 'client' });
    expect(listed.structuredContent.data.map((f: { id: string }) => f.id)).toContain(id);
    expect((await call(client, 'update_field', { id, label: 'Customer tier' })).structuredContent.label).toBe('Customer tier');
    expect((await call(client, 'delete_field', { id })).structuredContent).toMatchObject({ id, deleted: true });
    expect((await api.get(`/v1/fields/${id}`)).status).toBe(404);
  });

  it('manages a client, a lead, a deal and an invoice, and the REST API sees every effect', async () => {
    const created = await call(client, 'create_client', {
      name: 'Mcp Works GmbH',
      email: 'billing@mcpworks.example',
      contacts: [{ first_name: 'Ida', is_primary: true }],
    });
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    const clientId = created.structuredContent.id as string;
    expect((await api.get(`/v1/clients/${clientId}`)).body.contacts[0].first_name).toBe('Ida');

    const found = await call(client, 'search_clients', { q: 'mcpworks' });
    expect(found.structuredContent.data.map((c: { id: string }) => c.id)).toContain(clientId);
    expect((await call(client, 'get_client', { id: clientId })).structuredContent.name).toBe('Mcp Works GmbH');

    const lead = (await call(client, 'create_lead', { first_name: 'Lea', company: 'Lead Co' })).structuredContent;
    const converted = await call(client, 'convert_lead', { id: lead.id, deal: { value: 1200, currency: 'EUR' } });
    expect(converted.structuredContent.lead.status).toBe('converted');
    expect((await api.get(`/v1/leads/${lead.id}`)).body.status).toBe('converted');

    const deal = (await call(client, 'create_deal', { title: 'Mcp deal', value: 99.5, currency: 'EUR', stage: 'lead_in', client_id: clientId }))
      .structuredContent;
    expect((await call(client, 'move_deal_stage', { id: deal.id, stage: 'negotiation' })).structuredContent.stage).toBe('negotiation');
    expect((await call(client, 'win_deal', { id: deal.id })).structuredContent.stage).toBe('won');
    expect((await api.get(`/v1/deals/${deal.id}`)).body.won_at).not.toBeNull();
    expect((await call(client, 'reopen_deal', { id: deal.id, stage: 'proposal' })).structuredContent.stage).toBe('proposal');
    expect((await call(client, 'lose_deal', { id: deal.id, reason: 'Budget' })).structuredContent.lost_reason).toBe('Budget');

    const invoice = (await call(client, 'create_invoice', { client_id: clientId, line_items: [{ description: 'Work', quantity: 2, unit_price: 10 }] }))
      .structuredContent;
    expect(invoice).toMatchObject({ status: 'open', total: 20 });
    expect((await call(client, 'pay_invoice', { id: invoice.id })).structuredContent.status).toBe('paid');
    expect((await api.get(`/v1/invoices/${invoice.id}`)).body.status).toBe('paid');

    const events = await call(client, 'list_events', { type: 'invoice.paid' });
    expect(events.structuredContent.data.some((e: { data: { object: { id: string } } }) => e.data.object.id === invoice.id)).toBe(true);
    expect((await call(client, 'list_pipeline_stages')).structuredContent.data[0].stages).toHaveLength(6);
    // The summary the tool returns is the API's, for the same filter.
    const summary = (await call(client, 'summarize_pipeline', { client_id: clientId })).structuredContent;
    expect(summary).toEqual((await api.get(`/v1/deals/summary?client_id=${clientId}`)).body);
    expect(summary.stages.find((s: { stage: string }) => s.stage === 'lost').count).toBeGreaterThan(0);
  });

  it('returns API errors as tool errors the assistant can read', async () => {
    const missing = await call(client, 'get_deal', { id: 'deal_nope' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/^not_found \(HTTP 404\)/);
    const invalid = await call(client, 'create_deal', { title: 'Bad', value: 1.234, currency: 'EUR', stage: 'lead_in' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/validation_failed.*\n- value: EUR allows at most 2 decimal/s);
    const refused = await call(client, 'win_deal', { id: (await api.post('/v1/deals', { title: 'Lost', value: 1, currency: 'EUR', stage: 'lost' })).body.id });
    expect(refused.content[0]!.text).toMatch(/^invalid_transition/);
  });

  it('does not duplicate a write retried with the same idempotency key', async () => {
    const args = { first_name: 'Retry', email: `retry-${_name.length}@example.com`, idempotency_key: `mcp-retry-${_name.replace(/\W/g, '')}` };
    const first = await call(client, 'create_lead', args);
    const second = await call(client, 'create_lead', args);
    expect(second.structuredContent.id).toBe(first.structuredContent.id);
    const list = await api.get(`/v1/leads?email=${encodeURIComponent(args.email)}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('writes nothing but the protocol to stdout', () => {
    // The SDK client parses every stdout line as JSON-RPC and fails on anything else; stderr carries the rest.
    if (_name === 'stdio') expect(stderr()).toMatch(/MCP server on stdio/);
  });

  it("prints no warning of Node's on stderr (the sandbox's terminal, or the stdio server's)", () => {
    // The bundle's dynamic import() of a package outside it went through vm's experimental loader,
    // and Node said so on the first /mcp request: ExperimentalWarning: vm.USE_MAIN_CONTEXT_DEFAULT_LOADER.
    expect(stderr()).not.toMatch(/Warning/);
  });
});

describe('MCP scopes', () => {
  it('lists only the tools a key’s scopes allow, and refuses the others', async () => {
    const key = await api.post('/v1/api_keys', { name: 'mcp read-only', scopes: ['deals:read'] });
    const client = await httpClient(key.body.secret);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(['get_deal', 'list_deals', 'list_pipeline_stages', 'summarize_pipeline']);
      expect((await call(client, 'list_deals')).isError).toBeFalsy();
      const hidden = await call(client, 'create_deal', { title: 'Nope', value: 1, currency: 'EUR', stage: 'lead_in' });
      expect(hidden.isError).toBe(true);
      expect(hidden.content[0]!.text).toMatch(/create_deal not found/);
      expect((await api.get('/v1/deals?q=Nope')).body.data).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('over stdio too, a narrow key lists only its tools (crm mcp asks GET /v1/account for its scopes)', async () => {
    const key = await api.post('/v1/api_keys', { name: 'mcp stdio read-only', scopes: ['deals:read'] });
    expect((await api.get('/v1/account', { key: key.body.secret })).body.credential).toMatchObject({ id: key.body.id, scopes: ['deals:read'] });
    const { client } = await stdioClient(key.body.secret);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(['get_deal', 'list_deals', 'list_pipeline_stages', 'summarize_pipeline']);
    } finally {
      await client.close();
    }
  });

  it('a listed tool the API still refuses (a conversion needs more scopes) is a tool error naming the scope', async () => {
    const key = await api.post('/v1/api_keys', { name: 'mcp leads only', scopes: ['leads:write'] });
    const client = await httpClient(key.body.secret);
    try {
      const lead = (await api.post('/v1/leads', { first_name: 'Scoped', company: 'Scope Co' })).body;
      const denied = await call(client, 'convert_lead', { id: lead.id });
      expect(denied.isError).toBe(true);
      expect(denied.content[0]!.text).toMatch(/^insufficient_scope \(HTTP 403\).*clients:write/);
      expect((await api.get(`/v1/leads/${lead.id}`)).body.status).not.toBe('converted');
    } finally {
      await client.close();
    }
  });

  it('refuses /mcp without a valid bearer token (401)', async () => {
    const res = await fetch(`${sandbox.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    // RFC 9728 §5.1: where an MCP client finds how to sign in (test/e2e/mcp-oauth.test.ts follows it).
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="crm", resource_metadata="${sandbox.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    const wrong = await fetch(`${sandbox.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer crm_test_unknown' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe(
      `Bearer realm="crm", error="invalid_token", resource_metadata="${sandbox.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
    // Other routes keep their challenge as it was.
    expect((await fetch(`${sandbox.baseUrl}/v1/leads`)).headers.get('www-authenticate')).toBe('Bearer realm="crm"');
  });
});
