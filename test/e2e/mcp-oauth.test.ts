import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { signInWithKey } from '../helpers/dashboard.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { answerConsent, MCP_REDIRECT, RecordingOAuthProvider } from '../helpers/mcp-oauth.js';
import type { ApiClient } from '../helpers/sandbox.js';

/**
 * An MCP client signs in the way Claude Desktop or the MCP Inspector do (docs/mcp.md#signing-in-with-oauth):
 * the MCP SDK's own OAuth client, given nothing but the /mcp URL, follows the 401 to the
 * resource metadata (RFC 9728), the authorization server's (RFC 8414), registers itself (RFC 7591),
 * sends the user to the consent page (approved here by a signed-in dashboard user, as a browser
 * would), exchanges the code with PKCE and RFC 8707's resource, and then uses the token on /mcp.
 */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => ((sandbox = s), (api = a)));

const mcpUrl = () => new URL(`${sandbox.baseUrl}/mcp`);

async function connectWith(provider: RecordingOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'crm-oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  return client;
}

describe('MCP client sign-in by discovery and dynamic registration', () => {
  it('the SDK client goes from a 401 to a working token, and the app shows among the OAuth apps as self-registered', async () => {
    const provider = new RecordingOAuthProvider('Claude-like client');
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    const first = new Client({ name: 'crm-oauth-test', version: '1.0.0' });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    // It registered itself and would now open the consent page in the browser.
    expect(provider.client?.client_id).toMatch(/^crm_client_/);
    expect(provider.client).not.toHaveProperty('client_secret');
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${sandbox.baseUrl}/oauth/authorize`);
    expect(url.searchParams.get('resource')).toBe(`${sandbox.baseUrl}/mcp`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');

    const consent = await answerConsent(sandbox.baseUrl, url, await signInWithKey(sandbox.baseUrl, sandbox.apiKey));
    expect(consent.page).toContain('This app registered itself');
    expect(consent.answer.status, consent.answer.body).toBe(302);
    expect(consent.location!.origin + consent.location!.pathname).toBe(MCP_REDIRECT);
    await transport.finishAuth(consent.location!.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^crm_at_/);

    const client = await connectWith(provider);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toHaveLength(37);
      const made = (await client.callTool({ name: 'create_lead', arguments: { first_name: 'Via OAuth' } })) as any;
      expect((await api.get(`/v1/leads/${made.structuredContent.id}`)).body.first_name).toBe('Via OAuth');
    } finally {
      await client.close();
    }

    // The dashboard's OAuth apps page lists it (marked), and it is deleted like any other: its token stops.
    const listed = (await api.get('/v1/oauth_apps?limit=100')).body.data.find((a: { client_id: string }) => a.client_id === provider.client!.client_id);
    expect(listed).toMatchObject({ name: 'Claude-like client', self_registered: true, registered_by: null, redirect_uris: [MCP_REDIRECT] });
    expect((await api.delete(`/v1/oauth_apps/${listed.id}`)).status).toBe(200);
    const after = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
  });

  it("a token's scopes limit the tools it lists, and a user whose key holds just those may approve it", async () => {
    const provider = new RecordingOAuthProvider('Deals reader');
    expect(await auth(provider, { serverUrl: mcpUrl(), scope: 'deals:read' })).toBe('REDIRECT');
    expect(provider.authorizationUrl!.searchParams.get('scope')).toBe('deals:read');

    const reader = (await api.post('/v1/api_keys', { name: 'deals reader', scopes: ['deals:read'] })).body.secret;
    const consent = await answerConsent(sandbox.baseUrl, provider.authorizationUrl!, await signInWithKey(sandbox.baseUrl, reader));
    expect(consent.answer.status, consent.answer.body).toBe(302);
    expect(await auth(provider, { serverUrl: mcpUrl(), authorizationCode: consent.location!.searchParams.get('code')! })).toBe('AUTHORIZED');
    expect(provider.saved?.scope).toBe('deals:read');

    const client = await connectWith(provider);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_deal', 'list_deals', 'list_pipeline_stages', 'summarize_pipeline']);
      const refused = (await client.callTool({ name: 'create_lead', arguments: { first_name: 'Nope' } })) as { isError?: boolean };
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('publishes the discovery documents an MCP client reads', async () => {
    const metadata: any = await (await fetch(`${sandbox.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({
      resource: `${sandbox.baseUrl}/mcp`,
      authorization_servers: [sandbox.baseUrl],
      bearer_methods_supported: ['header'],
      resource_name: expect.any(String),
    });
    expect(metadata.scopes_supported).toContain('deals:read');
    expect(metadata.scopes_supported).not.toContain('*');
    const whole: any = await (await fetch(`${sandbox.baseUrl}/.well-known/oauth-protected-resource`)).json();
    expect(whole.resource).toBe(sandbox.baseUrl);
    const as: any = await (await fetch(`${sandbox.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({ registration_endpoint: `${sandbox.baseUrl}/oauth/register`, code_challenge_methods_supported: ['S256'] });
    expect(as.token_endpoint_auth_methods_supported).toContain('none');
    // A client that reached the sandbox as localhost finds a resource on localhost (the SDK checks they match).
    const port = new URL(sandbox.baseUrl).port;
    const local = await fetch(`http://localhost:${port}/.well-known/oauth-protected-resource/mcp`);
    expect(((await local.json()) as any).resource).toBe(`http://localhost:${port}/mcp`);
  });
});
