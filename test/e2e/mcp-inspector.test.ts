import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { useApp, type RunningApp } from '../helpers/app.js';
import type { ApiClient } from '../helpers/sandbox.js';
import { CRM_BIN } from '../helpers/sandbox.js';

/**
 * The tools as an independent MCP client sees them: the MCP Inspector's CLI
 * (@modelcontextprotocol/inspector-cli, what `npx @modelcontextprotocol/inspector --cli` runs)
 * over Streamable HTTP with a bearer header and over stdio (`crm mcp`). One Inspector run per
 * transport and check; the check of every tool runs in this process with the SDK's client.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

const INSPECTOR = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/build/index.js');
const run = promisify(execFile);

/**
 * One Inspector run; its stdout is the JSON result. Run from its own folder: it reads its version
 * from ../package.json relative to the working directory.
 */
async function inspector(target: string[], args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [INSPECTOR, ...target, ...args], {
    cwd: dirname(INSPECTOR),
    env: { ...process.env, CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey, NO_COLOR: '1' },
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

const TRANSPORTS: [string, () => string[]][] = [
  ['Streamable HTTP', () => [`${sandbox.baseUrl}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${sandbox.apiKey}`]],
  ['stdio', () => [process.execPath, CRM_BIN, 'mcp']],
];

describe.each(TRANSPORTS)('the MCP Inspector over %s', (_name, target) => {
  it('lists the tools with their annotations and closed input schemas', async () => {
    const { tools } = await inspector(target(), ['--method', 'tools/list']);
    const byName = new Map<string, any>(tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.size).toBe(37);
    expect(byName.get('get_deal').annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('create_client').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const name of ['update_client', 'delete_lead', 'send_invoice', 'pay_invoice']) {
      expect(byName.get(name).annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  });

  it('a call with an argument the tool does not take is a tool error naming it, and writes nothing', async () => {
    const client = (await api.post('/v1/clients', { name: `Inspector ${_name}` })).body;
    const result = await inspector(target(), ['--method', 'tools/call', '--tool-name', 'update_client', '--tool-arg', `id=${client.id}`, 'nmae=x']);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/nmae/);
    expect((await api.get(`/v1/clients/${client.id}`)).body.name).toBe(`Inspector ${_name}`);
  });
});

describe('every tool', () => {
  it('refuses an argument it does not take (the SDK client, in this process)', async () => {
    const client = new Client({ name: 'crm-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${sandbox.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${sandbox.apiKey}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBe(37);
      for (const tool of tools) {
        const result = (await client.callTool({ name: tool.name, arguments: { nmae: 'x' } })) as { isError?: boolean; content: { text: string }[] };
        expect(result.isError, tool.name).toBe(true);
        expect(result.content[0]!.text, tool.name).toMatch(/Unrecognized key: "nmae"/);
      }
    } finally {
      await client.close();
    }
  });
});
