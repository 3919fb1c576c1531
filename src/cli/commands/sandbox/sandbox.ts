import type { AddressInfo } from 'node:net';
import { isLoopbackAddress, listeningOn, networkUrls } from '../../../sandbox/listen-address.js';
import type { GlobalOptions } from '../../api.js';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { codeCacheAwaitsCheckpoint, codeCacheCheckpoint } from '../../../code-cache.js';
import { limitHeapGrowth } from '../../../heap-limits.js';
import { recordSandbox, recordStop } from '../../credentials.js';
import { type AssistantConfig, assistantConfig } from '../../../assistant/config.js';
import { EXIT } from '../../exit-codes.js';
import { CliError, bold, cyan, dim, green, printJson, yellow } from '../../output.js';

export interface StartOptions {
  port: number;
  host: string;
  db: string;
  seed: number | false;
  fixtures?: string;
  apiKey?: string;
  rateLimit: string;
  quota: string;
  json: boolean;
  logLevel?: string;
  webhookTimeScale?: number;
  assistantUrl?: string;
  assistantModel?: string;
  assistantProvider?: string;
}

/** `crm sandbox start`: runs until SIGINT/SIGTERM, then closes the server and the database cleanly. */
export async function startCommand(options: StartOptions): Promise<void> {
  checkpointAtFirstApiAnswer();
  const { startSandbox } = await import('../../../sandbox/sandbox.js');
  let assistant: AssistantConfig | undefined;
  try {
    assistant = assistantConfig(options);
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage); // a flag or variable the CLI can check itself
  }
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: options.port,
      host: options.host,
      db: options.db,
      seed: options.seed,
      rateLimit: options.rateLimit,
      quota: options.quota,
      ...(options.fixtures ? { fixtures: options.fixtures } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
      ...(options.webhookTimeScale ? { webhookTimeScale: options.webhookTimeScale } : {}),
      ...(assistant ? { assistant } : {}),
    });
  } catch (error) {
    const { code, syscall, path } = error as NodeJS.ErrnoException;
    if (code === 'EADDRINUSE') throw new CliError(`Port ${options.port} is in use. Pick another with --port, or --port 0 for a free one.`);
    if (code === 'EACCES' && (syscall === 'listen' || syscall === 'bind'))
      throw new CliError(`Not allowed to listen on ${options.host}:${options.port}. Use a port above 1024.`);
    if ((error as Error).name === 'FixtureError') throw new CliError(`Could not load fixtures: ${(error as Error).message}`);
    // The database's folder and file are made (0700, 0600) before SQLite opens them: their errors are the file system's.
    if (code === 'SQLITE_CANTOPEN' || (path && code && ['EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EEXIST', 'EISDIR', 'EROFS'].includes(code))) {
      throw new CliError(`Cannot open the database ${options.db}${path ? ` (${code} on ${path})` : ''}. Check the path and its permissions.`);
    }
    throw error;
  }

  // The heap limits for the long imports it may serve (heap-limits.ts) are set as the first request
  // comes, in the turn after it: a GET is answered by then (loading node:v8 for them was ~3 ms of
  // the first answer, docs/benchmarks.md), while a bulk body is still arriving, so an import that starts at
  // once (a CI job) runs under them from its first batch (a second later, the young generation
  // had grown to 64 MB and a 1M import peaked at 245 MB). No request, no allocations to limit.
  sandbox.app.server.once('request', () => setImmediate(limitHeapGrowth));

  // Commands run in this folder find the sandbox by themselves (docs/sync.md#credentials); nothing to export.
  const cwd = process.cwd();
  const recorded = recordSandbox(cwd, { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey ?? undefined, db: sandbox.db, pid: process.pid });
  // Listening for the stop signals before the ready line: whoever reads it may signal at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      sandbox
        .stop()
        .finally(() => recordStop(cwd, process.pid))
        .then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  warnIfReachable(sandbox.address);
  noteOtherSandboxes(recorded, sandbox.baseUrl);
  if (options.json) {
    printJson({
      base_url: sandbox.baseUrl,
      listening_on: listeningOn(sandbox.address),
      api_key: sandbox.apiKey,
      dashboard_url: sandbox.dashboardUrl,
      db: sandbox.db,
      pid: process.pid,
    });
  } else {
    const key = sandbox.apiKey ?? dim('(made on an earlier start; create another with `crm keys create`, or pass --api-key)');
    process.stdout.write(
      [
        `${green('●')} ${bold('crm sandbox ready')}`,
        field('Base URL', cyan(sandbox.baseUrl)),
        field('API key', key),
        field('Dashboard', sandbox.dashboardUrl ?? dim('(no admin key left: sign in with an API key)')),
        field('Database', `${sandbox.db}${options.seed === false ? '' : dim(` (seed ${options.seed})`)}`),
        field('OpenAPI', `${sandbox.baseUrl}/v1/openapi.json`),
        field('API docs', `${sandbox.baseUrl}/docs`),
        // Only when set: the model and where it runs, never the key (docs/assistant.md).
        ...(assistant ? [field('Assistant', `${assistant.model} ${dim(`(${assistant.provider} at ${new URL(assistant.url).origin})`)}`)] : []),
        ...(recorded && !recorded.otherDefault ? [dim(`  Saved to ${recorded.path}: crm commands run in this folder use it.`)] : []),
        '',
        dim(`  Try: curl -H "Authorization: Bearer ${sandbox.apiKey ?? '<key>'}" "${sandbox.baseUrl}/v1/deals?limit=5"`),
        dim('  Press Ctrl+C to stop.'),
        '',
      ].join('\n'),
    );
  }

  await stopped;
  if (!options.json) process.stderr.write(dim('sandbox stopped\n', process.stderr));
}

/**
 * A second sandbox in a folder does not take the first one's place: commands there keep using the
 * one that runs. Said on stderr (the --json line stays one line), with how to reach this one.
 */
function noteOtherSandboxes(recorded: ReturnType<typeof recordSandbox>, baseUrl: string): void {
  if (recorded?.distrusted) process.stderr.write(`${yellow('note', process.stderr)}: ${recorded.distrusted}; crm wrote a new one in its place.\n`);
  if (recorded?.replaced) {
    process.stderr.write(
      `${yellow('note', process.stderr)}: another process (pid ${recorded.replaced.pid}, ${recorded.replaced.base_url}) serves the same database; ${recorded.path} now names this one.\n`,
    );
  }
  if (recorded?.otherDefault) {
    process.stderr.write(
      `${yellow('note', process.stderr)}: the sandbox on ${recorded.otherDefault.base_url} (${recorded.otherDefault.db}) also runs from this folder; crm commands here keep using it ` +
        `while it runs. For this one pass --base-url ${baseUrl} (its key is in ${recorded.path}).\n`,
    );
  }
}

/**
 * A sandbox other machines can reach hands them its secrets over plain HTTP (the admin key is not
 * needed to read a payment page, and a key typed on the dashboard crosses the network): say so on
 * stderr, with where it listens, the URLs others would use, and how to keep it to this machine.
 */
function warnIfReachable(address: AddressInfo): void {
  if (isLoopbackAddress(address.address)) return;
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  const others = networkUrls(address);
  const lines = [
    `${yellow('warning', process.stderr)}: the sandbox listens on ${listeningOn(address)}${everywhere ? ' (every network interface)' : ''}, so other machines can reach it${others.length ? ` at ${others.join(', ')}` : ''}.`,
    '  It holds test API keys, webhook secrets and payment links, over plain HTTP. Unless others must reach it,',
    "  start it with --host 127.0.0.1 (the default). The dashboard answers only at the base URL's address.",
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** `crm sandbox reset`: POST /_sandbox/reset on a running sandbox. */
export async function resetCommand(options: GlobalOptions): Promise<void> {
  // Imported here: the HTTP client loads undici (and node:http2), ~100 ms that `sandbox start` does not need.
  const { withClient } = await import('../../api.js');
  const body = await withClient(options, (client) => client.post<{ seeded: boolean }>('/_sandbox/reset'));
  if (options.json) printJson(body);
  else process.stdout.write(`Sandbox at ${options.baseUrl} reset${body.seeded ? ' and seeded again' : ''}.\n`);
}

/** `crm dashboard`: a fresh single-use sign-in link (POST /_sandbox/dashboard_logins, admin key). */
export async function dashboardCommand(options: GlobalOptions): Promise<void> {
  const { withClient } = await import('../../api.js');
  const body = await withClient(options, (client) => client.post<{ url: string; expires_at: string }>('/_sandbox/dashboard_logins'));
  if (options.json) printJson({ dashboard_url: body.url, expires_at: body.expires_at });
  else process.stdout.write(`Dashboard  ${body.url}\n${dim(`  Single use, valid until ${body.expires_at}.`)}\n`);
}

/** `crm sandbox wait`: polls /healthz until it answers 200, for CI steps that start the sandbox in the background. */
export async function waitCommand(options: { baseUrl: string; json: boolean; timeout: number; interval: number }): Promise<void> {
  const started = Date.now();
  const deadline = started + options.timeout * 1000;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${options.baseUrl}/healthz`, { signal: AbortSignal.timeout(Math.max(200, options.interval * 4)) });
      if (response.ok) {
        const waited = Date.now() - started;
        if (options.json) printJson({ status: 'ok', base_url: options.baseUrl, waited_ms: waited });
        else process.stdout.write(`${green('●')} ${options.baseUrl} is ready ${dim(`(after ${waited} ms)`)}\n`);
        return;
      }
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, options.interval));
  }
  throw new CliError(`${options.baseUrl} was not ready after ${options.timeout} s (${last}). Is the sandbox starting? Check its output, or raise --timeout.`);
}

/** A line of the ready banner: labels padded so every value starts in the same column. */
const field = (label: string, value: string): string => `  ${label.padEnd(9)}  ${value}`;

const RESPONSE_FINISHED = 'http.server.response.finish';

/**
 * The start is over once the first successful answer to an API request (`/v1/…`, below 400) has
 * gone: the code cache of a start is made then, so that it holds what such a request runs (the
 * credential's check, the query's schema, a page, the request log). A start's first request is often `/healthz` (a CI job
 * waiting for it) or none at all (started, then stopped): a cache made then lacked the API's path,
 * and every later start's first API answer came ~8-11 ms later (docs/benchmarks.md).
 * Node's diagnostics channel, subscribed before the server exists, also sees requests that arrive
 * while the sandbox is being made, which wait and are answered once it is ready.
 */
function checkpointAtFirstApiAnswer(): void {
  codeCacheAwaitsCheckpoint();
  const onFinish = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    if (!request.url?.startsWith('/v1/') || response.statusCode >= 400) return;
    unsubscribe(RESPONSE_FINISHED, onFinish);
    codeCacheCheckpoint();
  };
  subscribe(RESPONSE_FINISHED, onFinish);
}
