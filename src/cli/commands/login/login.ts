import type { Credentials } from '../../credentials.js';
import { DEFAULT_PROFILE, HOW_TO_LOG_IN, configPath, keyHint, readConfig, writeConfig } from '../../credentials.js';
import { CliError, bold, dim, printJson } from '../../output.js';
import { EXIT } from '../../exit-codes.js';

/** `crm login`: saves a base URL and key as a profile (the file is readable by its owner only). */
export function loginCommand(options: { baseUrl?: string; apiKey?: string; profile?: string; json: boolean }): void {
  if (!options.baseUrl || !options.apiKey) {
    throw new CliError('crm login needs both --base-url URL and --api-key KEY.', EXIT.usage);
  }
  try {
    new URL(options.baseUrl);
  } catch {
    throw new CliError(`--base-url '${options.baseUrl}' is not a URL (e.g. http://127.0.0.1:4010).`, EXIT.usage);
  }
  const name = options.profile?.trim() || DEFAULT_PROFILE;
  const warnings: string[] = [];
  const config = readConfig(process.env, warnings);
  config.profiles[name] = { base_url: options.baseUrl.replace(/\/+$/, ''), api_key: options.apiKey };
  const path = writeConfig(config);
  if (options.json) return printJson({ profile: name, base_url: options.baseUrl, key: keyHint(options.apiKey), path });
  process.stdout.write(`Saved profile ${bold(name)} (${options.baseUrl}, key ${keyHint(options.apiKey)}) in ${path}\n`);
}

/** `crm logout`: forgets a profile. */
export function logoutCommand(options: { profile?: string; json: boolean }): void {
  const name = options.profile?.trim() || DEFAULT_PROFILE;
  const config = readConfig();
  if (!config.profiles[name]) {
    throw new CliError(`No profile '${name}' in ${configPath()}; nothing to log out of.`);
  }
  delete config.profiles[name];
  const path = writeConfig(config);
  if (options.json) return printJson({ profile: name, removed: true, path });
  process.stdout.write(`Removed profile ${bold(name)} from ${path}\n`);
}

const SOURCE_TEXT: Record<Credentials['source'], string> = {
  flags: '--api-key flag',
  env: 'CRM_API_KEY environment variable',
  profile: 'profile',
  'sandbox-file': 'sandbox file',
  'default-profile': 'default profile',
  none: 'nothing found',
};

/** `crm whoami`: which server and key the next command would use, and where they came from. */
export function whoamiCommand(credentials: Credentials, json: boolean): void {
  if (!credentials.apiKey) throw credentials.noKeyReason ? new CliError(credentials.noKeyReason, EXIT.failure) : new CliError(HOW_TO_LOG_IN, EXIT.usage);
  const key = credentials.apiKey ? keyHint(credentials.apiKey) : null;
  if (json) {
    return printJson({ base_url: credentials.baseUrl, key, source: credentials.source, from: credentials.from ?? null });
  }
  const from = credentials.from ? ` ${credentials.from}` : '';
  process.stdout.write(
    [`Base URL  ${credentials.baseUrl}`, `API key   ${key ?? dim('none')}`, `Source    ${SOURCE_TEXT[credentials.source]}${from}`, ''].join('\n'),
  );
}
