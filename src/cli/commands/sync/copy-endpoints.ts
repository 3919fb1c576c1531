import { CrmApiError } from '../../../client/errors.js';
import type { CrmClient } from '../../../client/client.js';
import { resolveCredentials } from '../../credentials.js';
import { SyncUsageError } from '../../../sync/errors.js';

/**
 * `--from` and `--to` of `crm sync copy`: each a profile name (`crm login --profile prod`), the
 * word `sandbox` (the .crm/sandbox.json that `crm sandbox start` wrote in this folder, unless a
 * profile has that name), or a URL. A URL's key comes from --from-api-key/--to-api-key, else
 * CRM_FROM_API_KEY/CRM_TO_API_KEY, else a stored key of that same server (a profile, the sandbox
 * file): as everywhere in crm, a stored key is only ever sent to its own server.
 */
export interface Endpoint {
  /** As given: a profile name or a URL (never the key). */
  label: string;
  baseUrl: string;
  apiKey: string;
}

export function resolveEndpoint(
  side: 'from' | 'to',
  value: string,
  explicitKey: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Endpoint {
  const key = explicitKey ?? env[side === 'from' ? 'CRM_FROM_API_KEY' : 'CRM_TO_API_KEY'];
  const isUrl = /^https?:\/\//i.test(value);
  // Only the copy's own inputs: CRM_BASE_URL / CRM_API_KEY name one server and cannot be both ends.
  const base = { ...env, CRM_BASE_URL: undefined, CRM_API_KEY: undefined, CRM_PROFILE: undefined };
  let resolved: { baseUrl: string; apiKey?: string | undefined };
  if (isUrl) {
    resolved = key ? { baseUrl: value, apiKey: key } : resolveCredentials({ flags: { baseUrl: value }, env: base, cwd });
  } else if (value === 'sandbox') {
    resolved = resolveSandbox(base, cwd);
    if (key) resolved = { ...resolved, apiKey: key };
  } else {
    resolved = resolveCredentials({ flags: {}, profile: value, env: base, cwd });
    if (key) resolved = { ...resolved, apiKey: key };
  }
  if (!resolved.apiKey) {
    throw new SyncUsageError(
      `No API key for --${side} ${value}: pass --${side}-api-key KEY (or CRM_${side.toUpperCase()}_API_KEY), or save it with crm login --base-url ${isUrl ? value : 'URL'} --api-key KEY --profile NAME.`,
    );
  }
  return { label: value, baseUrl: resolved.baseUrl.replace(/\/+$/, ''), apiKey: resolved.apiKey };
}

/** `sandbox`: a profile of that name if there is one, else this folder's .crm/sandbox.json. */
function resolveSandbox(env: NodeJS.ProcessEnv, cwd: string): { baseUrl: string; apiKey?: string | undefined } {
  try {
    return resolveCredentials({ flags: {}, profile: 'sandbox', env, cwd });
  } catch {
    const found = resolveCredentials({ flags: {}, env, cwd });
    if (found.source !== 'sandbox-file')
      throw new SyncUsageError(
        '--to sandbox: no profile named sandbox and no .crm/sandbox.json here. Run `crm sandbox start` in this folder first, or give a URL.',
      );
    return found;
  }
}

/**
 * Whether a server is a crm sandbox: it has the /_sandbox routes (its admin key reads the
 * webhook pause; any other key of it is refused with 403, not 404). A production server has none.
 */
export async function isSandbox(client: CrmClient): Promise<boolean> {
  try {
    await client.get('/_sandbox/webhook_pause');
    return true;
  } catch (error) {
    if (error instanceof CrmApiError) return error.status !== 404 && error.status !== 405;
    throw error;
  }
}
