import type { Command } from 'commander';
import { resolveCredentials, type Credentials } from './credentials.js';
import { printWarning } from './output.js';

/**
 * Fills --base-url and --api-key from the one resolver (flags, variables, profile, .crm/sandbox.json,
 * default profile; docs/sync.md, "Credentials") before any command runs, so every command, `crm mcp`
 * and `crm listen` use the same credentials. `crm whoami` shows what it found.
 */
export function resolveInto(program: Command): Credentials {
  const source = (name: string) => program.getOptionValueSource(name);
  const opts = program.opts<{ baseUrl?: string; apiKey?: string; profile?: string }>();
  const credentials = resolveCredentials({
    flags: {
      ...(source('baseUrl') === 'cli' ? { baseUrl: opts.baseUrl } : {}),
      ...(source('apiKey') === 'cli' ? { apiKey: opts.apiKey } : {}),
    },
    env: process.env,
    ...(opts.profile ? { profile: opts.profile } : {}),
    cwd: process.cwd(),
  });
  for (const warning of credentials.warnings) printWarning(warning);
  program.setOptionValueWithSource('baseUrl', credentials.baseUrl, source('baseUrl') ?? 'config');
  if (credentials.apiKey) program.setOptionValueWithSource('apiKey', credentials.apiKey, source('apiKey') === 'cli' ? 'cli' : 'config');
  if (credentials.noKeyReason) program.setOptionValueWithSource('noKeyReason', credentials.noKeyReason, 'config');
  return credentials;
}
