import type { ApiKey } from '../../../schemas/api-key.js';
import { withClient, type GlobalOptions } from '../../api.js';
import { bold, printJson, table, yellow } from '../../output.js';

/** `crm keys create|list|revoke`: Settings → API from the terminal. */
export async function createKey(options: GlobalOptions, name: string, scopes: string[], expiresAt?: string): Promise<void> {
  const key = await withClient(options, (c) =>
    c.post<ApiKey & { secret: string }>('/v1/api_keys', { name, scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) }),
  );
  if (options.json) return printJson(key);
  process.stdout.write(
    `${bold('Created')} ${key.id} (${key.name}) with scopes ${key.scopes.join(' ')}\n\n  ${key.secret}\n\n` +
      yellow('This secret is shown once. Store it now; it cannot be shown again.\n'),
  );
}

export async function listKeys(options: GlobalOptions): Promise<void> {
  const keys = await withClient(options, (c) => c.all<ApiKey>('/v1/api_keys', { limit: 100 }));
  if (options.json) return printJson({ data: keys });
  process.stdout.write(
    table(
      ['ID', 'NAME', 'KEY', 'SCOPES', 'LAST USED', 'STATUS'],
      keys.map((k) => [k.id, k.name, `${k.prefix}…${k.last4}`, k.scopes.join(' '), k.last_used_at, status(k)]),
    ),
  );
}

export async function revokeKey(options: GlobalOptions, id: string): Promise<void> {
  const key = await withClient(options, (c) => c.request<ApiKey>('DELETE', `/v1/api_keys/${encodeURIComponent(id)}`));
  if (options.json) return printJson(key);
  process.stdout.write(`Revoked ${key.id} (${key.name}); it fails from the next request on.\n`);
}

function status(key: ApiKey): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) return 'expired';
  return key.expires_at ? `expires ${key.expires_at.slice(0, 10)}` : 'active';
}
