import { describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/dashboard.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/**
 * The attack: a web page the user opens drives the sandbox's MCP tools — from its own origin
 * (any site), or by DNS rebinding (a foreign name pointed at 127.0.0.1). The MCP Streamable HTTP
 * transport requires servers to validate Origin; /mcp must refuse both, while MCP clients that
 * are not browsers (no Origin) keep working — against a real sandbox process.
 */
let sandbox: RunningApp;
useApp({}, (s) => (sandbox = s));

const port = () => new URL(sandbox.baseUrl).port;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1.0.0' } },
});
const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

function mcp(headers: Record<string, string>, body = INITIALIZE) {
  return rawRequest(
    sandbox.baseUrl,
    'POST',
    '/mcp',
    { accept: 'application/json, text/event-stream', authorization: `Bearer ${sandbox.apiKey}`, ...headers },
    body,
  );
}

function expectProblem(res: { status: number; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(res.body);
  expect(problem).toMatchObject({ type: `/errors/${code}`, status, code });
  expect(problem.request_id).toMatch(/^req_/);
}

describe('POST /mcp from a web page', () => {
  it('refuses a foreign Origin with 403 forbidden_origin (RFC 9457), even with a valid key', async () => {
    for (const origin of ['http://evil.test', `http://evil.test:${port()}`, 'null', `https://127.0.0.1:${port()}`, 'http://127.0.0.1:1']) {
      expectProblem(await mcp({ origin }), 403, 'forbidden_origin');
      expectProblem(await mcp({ origin }, LIST_TOOLS), 403, 'forbidden_origin');
    }
  });

  it('refuses a foreign Host (DNS rebinding) with 421 misdirected_request, whatever the credentials', async () => {
    expectProblem(await mcp({ host: `evil.test:${port()}`, origin: `http://evil.test:${port()}` }), 421, 'misdirected_request');
    expectProblem(await mcp({ host: `evil.test:${port()}` }), 421, 'misdirected_request');
    expectProblem(await mcp({ host: `evil.test:${port()}`, authorization: '' }), 421, 'misdirected_request');
    for (const method of ['GET', 'DELETE']) {
      const res = await rawRequest(sandbox.baseUrl, method, '/mcp', { host: `evil.test:${port()}`, authorization: `Bearer ${sandbox.apiKey}` });
      expectProblem(res, 421, 'misdirected_request');
    }
  });

  it("answers the sandbox's own origin, and clients that send no Origin", async () => {
    const cases: Record<string, string>[] = [{ origin: sandbox.baseUrl }, { origin: `http://localhost:${port()}`, host: `localhost:${port()}` }, {}];
    for (const headers of cases) {
      const res = await mcp(headers);
      expect(res.status, `${JSON.stringify(headers)}: ${res.body}`).toBe(200);
      expect(JSON.parse(res.body).result.serverInfo.name).toBeTruthy();
    }
  });
});
