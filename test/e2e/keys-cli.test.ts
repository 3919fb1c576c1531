import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, type ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';

/** `crm keys create|list|revoke`, `crm usage` and `crm sandbox reset` as a user runs them (docs/reference/access.md#api-keys, README.md#the-main-commands). */
let sandbox: RunningApp;
let api: ApiClient;

useApp({ seed: 1 }, (s, a) => {
  sandbox = s;
  api = a;
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/crm.js ARGS` with no CRM_* settings from the environment leaking in. */
function crm(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CRM_')));
  const child = spawn(process.execPath, [CRM_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...clean, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The CLI against the test sandbox with its admin key. */
const admin = (...args: string[]) => crm(['--base-url', sandbox.baseUrl, '--api-key', sandbox.apiKey, ...args]);

const SECRET = /crm_test_[0-9A-Za-z]{32}/g;

describe('crm keys', () => {
  it('creates a key, shows its secret once, lists it without secrets, and revokes it', async () => {
    const created = await admin('keys', 'create', '--name', 'ci', '--scopes', 'leads:read');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const secrets = created.stdout.match(SECRET) ?? [];
    expect(secrets).toHaveLength(1);
    const secret = secrets[0]!;
    expect(secret).not.toBe(sandbox.apiKey);
    expect(created.stdout).toMatch(/shown once/i);
    expect(created.stdout).toContain('leads:read');
    const id = /\b(key_\w+)/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();

    // The secret works for what its scope allows, and no more.
    const read = await api.get('/v1/leads?limit=1', { key: secret });
    expect(read.status).toBe(200);
    const write = await api.post('/v1/leads', { company: 'Nope' }, { key: secret });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('insufficient_scope');

    const list = await admin('keys', 'list');
    expect(list.code).toBe(0);
    const row = list.stdout.split('\n').find((l) => l.startsWith(id!));
    expect(row).toMatch(/\bci\b/);
    expect(row).toContain(`${secret.slice(0, 13)}…${secret.slice(-4)}`);
    expect(row).toContain('leads:read');
    expect(row).toMatch(/active/);
    expect(list.stdout).not.toContain(secret);
    expect(list.stdout).not.toContain(sandbox.apiKey);
    expect(list.stdout.match(SECRET)).toBeNull();

    const listJson = await admin('keys', 'list', '--json');
    expect(listJson.code).toBe(0);
    expect(listJson.stdout).not.toContain(secret);
    const keys = JSON.parse(listJson.stdout).data as Record<string, unknown>[];
    const listed = keys.find((k) => k.id === id);
    expect(listed).toMatchObject({ id, name: 'ci', scopes: ['leads:read'], revoked_at: null, last4: secret.slice(-4) });
    expect(listed).not.toHaveProperty('secret');
    expect(keys.length).toBeGreaterThanOrEqual(2); // the admin key too

    const revoked = await admin('keys', 'revoke', id!);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(id);
    const denied = await api.get('/v1/leads?limit=1', { key: secret });
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe('unauthenticated');
    expect((await admin('keys', 'list')).stdout.split('\n').find((l) => l.startsWith(id!))).toMatch(/revoked/);
  });

  it('prints the created key as JSON with --json', async () => {
    const created = await admin('keys', 'create', '--name', 'ci-json', '--scopes', 'leads:read,deals:read', '--json');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ name: 'ci-json', scopes: ['leads:read', 'deals:read'] });
    expect(key.id).toMatch(/^key_/);
    expect(key.secret).toMatch(/^crm_test_[0-9A-Za-z]{32}$/);
    expect((await api.get('/v1/deals?limit=1', { key: key.secret })).status).toBe(200);
    expect((await api.get('/v1/clients?limit=1', { key: key.secret })).status).toBe(403);
  });

  it('refuses an unknown scope and a key that would exceed its own', async () => {
    // An unknown scope is a usage error, refused before anything is sent (exit 2, said once).
    const bad = await admin('keys', 'create', '--name', 'x', '--scopes', 'leads:delete');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown scope 'leads:delete'");
    expect(bad.stderr.match(/error:/g)).toHaveLength(1);

    const narrow = JSON.parse((await admin('keys', 'create', '--name', 'n', '--scopes', 'keys:write', '--json')).stdout).secret as string;
    const escalate = await crm(['--base-url', sandbox.baseUrl, '--api-key', narrow, 'keys', 'create', '--name', 'y', '--scopes', '*']);
    expect(escalate.code).toBe(1);
    expect(escalate.stderr).toMatch(/403|insufficient_scope/);
  });

  it('revoking an unknown key fails with exit 1', async () => {
    const res = await admin('keys', 'revoke', 'key_0000000000000000000000000');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/404|not_found/);
  });
});

describe('crm usage and crm sandbox reset', () => {
  it('prints the usage report with --json', async () => {
    await api.get('/v1/leads?limit=1');
    const res = await admin('usage', '--json');
    expect(res.code).toBe(0);
    const usage = JSON.parse(res.stdout);
    expect(usage.day).toBe(new Date().toISOString().slice(0, 10));
    expect(usage.totals.requests).toBeGreaterThan(0);
    expect(usage.by_endpoint.map((e: any) => e.endpoint)).toContain('GET /v1/leads');
    expect(usage.by_key.length).toBeGreaterThanOrEqual(1);
    expect(usage.quota).toMatchObject({ limit: 100000 });
    expect(usage.requests_per_second.series).toHaveLength(300);

    const human = await admin('usage');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('GET /v1/leads');
    expect(human.stdout).toMatch(/Requests today: \d+/);
  });

  it('resets the sandbox', async () => {
    const lead = await api.post('/v1/leads', { company: 'Made before the reset' });
    expect(lead.status).toBe(201);
    const res = await admin('sandbox', 'reset');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/reset/);
    expect((await api.get(`/v1/leads/${lead.body.id}`)).status).toBe(404);
    expect((await api.get('/v1/leads?limit=1')).body.data).toHaveLength(1); // seeded again
  });
});

describe('crm errors', () => {
  it('exits 2 naming CRM_API_KEY when no key is given', async () => {
    const res = await crm(['--base-url', sandbox.baseUrl, 'keys', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('CRM_API_KEY');
    expect(res.stdout).toBe('');
  });

  it('takes the key from CRM_API_KEY', async () => {
    const res = await crm(['keys', 'list', '--json'], { CRM_BASE_URL: sandbox.baseUrl, CRM_API_KEY: sandbox.apiKey });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).data.length).toBeGreaterThan(0);
  });

  it('exits 1 saying no server answered when nothing listens at the base URL', { timeout: 60_000 }, async () => {
    const port = await closedPort();
    const res = await crm(['--base-url', `http://127.0.0.1:${port}`, '--api-key', sandbox.apiKey, 'keys', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`No answer from http://127\\.0\\.0\\.1:${port}`));
    expect(res.stderr).toMatch(/Is the server running\?/);
  });
});

/** A port that was free a moment ago and has nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
