import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { CrmClient } from '../../../client/client.js';
import { CrmApiError } from '../../../client/errors.js';
import { SyncUsageError } from '../../../sync/errors.js';
import type { CopyReport } from '../../../sync/copy/copy.js';
import { COPY_RESOURCES, Masker, loadMaskKey, readMaskOption, type CopyResource } from '../../../sync/mask/rules.js';
import { isSandbox, resolveEndpoint } from './copy-endpoints.js';
import { configPath } from '../../credentials.js';
import type { GlobalOptions } from '../../api.js';
import { limitHeapGrowth } from '../../../heap-limits.js';
import { onInterrupt } from '../../interrupt.js';
import { CliError, ExitCode, bold, dim, green, printJson, red, yellow } from '../../output.js';
import { describe, duration } from '../../progress.js';
import { batchSizeForPlan } from './sync.js';
import { EXIT } from '../../exit-codes.js';

/** `crm sync copy` (docs/sync.md, "Copy"): the command's side — ends, masking, the webhook pause, output. */
export interface CopyFlags {
  from: string;
  to: string;
  fromApiKey?: string | undefined;
  toApiKey?: string | undefined;
  resources: string;
  where: string[];
  limit?: number | undefined;
  sample?: string | undefined;
  since?: string | undefined;
  mask?: string | undefined;
  maskKeyFile?: string | undefined;
  plan: boolean;
  resume: boolean;
  prune: boolean;
  withWebhooks: boolean;
  results?: string | undefined;
  batchSize: number;
  concurrency: number;
  retries: number;
}

/** Renewed while the copy runs: a killed copy leaves deliveries paused at most this long. */
const PAUSE_SECONDS = 600;
const slug = (label: string) =>
  label
    .replace(/^https?:\/\//, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
const note = (options: GlobalOptions, text: string) => void (options.json || process.stderr.write(`${yellow('note', process.stderr)}: ${text}\n`));

export async function copyCommand(options: GlobalOptions, flags: CopyFlags): Promise<void> {
  limitHeapGrowth();
  await run(options, flags);
}

async function run(options: GlobalOptions, flags: CopyFlags): Promise<void> {
  if (flags.limit !== undefined && flags.sample !== undefined)
    throw new SyncUsageError('--limit and --sample do not go together: pick one way to take a subset.');
  if (flags.plan && flags.resume) throw new SyncUsageError('--plan goes alone: it writes nothing, so there is nothing to resume.');
  const resources = parseResources(flags.resources);
  const { parseWhere, parseShare } = await import('../../../sync/copy/subset.js');
  const where = parseWhere(flags.where);
  const subset =
    where.size || flags.limit !== undefined || flags.sample !== undefined
      ? { where, limit: flags.limit, sample: flags.sample === undefined ? undefined : parseShare(flags.sample) }
      : undefined;
  const from = resolveEndpoint('from', flags.from, flags.fromApiKey);
  const to = resolveEndpoint('to', flags.to, flags.toApiKey);
  if (from.baseUrl === to.baseUrl && from.apiKey === to.apiKey)
    throw new SyncUsageError('--from and --to are the same server and key: a copy onto itself would only rewrite its own records.');
  const resultsDir = flags.results ?? join('.crm', 'copy', `${slug(from.label)}-to-${slug(to.label)}`);

  const tuning = { retry: { maxRetries: flags.retries }, connections: flags.concurrency + 1 };
  const source = new CrmClient({ ...tuning, baseUrl: from.baseUrl, apiKey: from.apiKey });
  const target = new CrmClient({ ...tuning, baseUrl: to.baseUrl, apiKey: to.apiKey });
  let pause: { stop(): Promise<void> } | undefined;
  const interrupt = onInterrupt();
  try {
    const [sourceIsSandbox, targetIsSandbox] = await Promise.all([isSandbox(source), isSandbox(target)]).catch((error: unknown) => {
      throw new CliError(`Cannot reach ${error instanceof CrmApiError ? 'the server' : 'a server'}: ${(error as Error).message}`);
    });
    const masker = makeMasker(options, flags, sourceIsSandbox, targetIsSandbox);
    const since = flags.since === 'last' ? await lastSync(resultsDir, flags) : flags.since;
    if (!flags.plan) pause = await pauseWebhooks(options, target, targetIsSandbox, flags.withWebhooks);
    const batchSize = await batchSizeForPlan(target, flags.batchSize, options);
    const { copyData } = await import('../../../sync/copy/copy.js');
    const progress = resourceProgress(options, flags.plan ? 'Planning' : 'Copying');
    const report = await copyData(
      {
        from: from.baseUrl,
        to: to.baseUrl,
        resources,
        subset,
        since,
        masker,
        plan: flags.plan,
        resume: flags.resume,
        prune: flags.prune,
        resultsDir,
        batchSize,
        concurrency: flags.concurrency,
        targetIsSandbox,
        fingerprint: fingerprint(flags, resources, masker),
        signal: interrupt.signal,
      },
      source,
      target,
      (resource, rows) => progress.update(resource, rows),
    );
    progress.end();
    printReport(report, options.json, masker.active);
    const failed = Object.values(report.resources).some((s) => s.failed > 0);
    if (failed || report.stopped) throw new ExitCode(EXIT.failure);
  } finally {
    interrupt.dispose();
    await pause?.stop();
    await Promise.all([source.close(), target.close()]);
  }
}

function parseResources(value: string): CopyResource[] {
  const list = value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = list.filter((r) => !COPY_RESOURCES.includes(r as CopyResource));
  if (unknown.length || list.length === 0)
    throw new SyncUsageError(`--resources: expected some of ${COPY_RESOURCES.join(', ')}; got ${unknown.join(', ') || 'nothing'}.`);
  return list as CopyResource[];
}

/** Masking is on by default into a sandbox from a server that is not one (personal data onto a laptop), off otherwise. */
function makeMasker(options: GlobalOptions, flags: CopyFlags, sourceIsSandbox: boolean, targetIsSandbox: boolean): Masker {
  const choice = flags.mask ?? (targetIsSandbox && !sourceIsSandbox ? 'default' : 'none');
  const settings = readMaskOption(choice);
  if (settings.mode === 'none') {
    if (!flags.mask && !options.json)
      note(options, `not masking: ${targetIsSandbox ? 'the source is a sandbox too' : 'the target is not a sandbox'}. Pass --mask default to mask anyway.`);
    return new Masker(undefined, settings);
  }
  const keyFile = flags.maskKeyFile ?? join(dirname(configPath()), 'mask.key');
  const { key, created } = loadMaskKey(keyFile);
  if (created) note(options, `made a masking key in ${keyFile} (0600); keep it to get the same fakes on the next copy.`);
  return new Masker(key, settings);
}

async function lastSync(resultsDir: string, flags: CopyFlags): Promise<string> {
  const { readState } = await import('../../../sync/copy/journal.js');
  const state = readState(resultsDir);
  if (!state)
    throw new SyncUsageError(
      `--since last: no earlier complete copy from ${flags.from} to ${flags.to} in ${resultsDir}. Run a full copy first, or give a time (--since 30d).`,
    );
  return state.synced_at;
}

/**
 * Progress on stderr, per resource: a line when one starts, its rows and rate every 5 s (a terminal
 * or a CI log alike), and its total when it ends. Nothing with --json.
 */
function resourceProgress(options: GlobalOptions, verb: string): { update(resource: CopyResource, rows: number): void; end(): void } {
  let current: { resource: CopyResource; started: number; rows: number; printed: number } | undefined;
  const end = () => {
    if (current && !options.json)
      process.stderr.write(`${verb} ${current.resource}: ${describe(current.rows, undefined, undefined, Date.now() - current.started)}, done\n`);
    current = undefined;
  };
  return {
    update(resource, rows) {
      if (options.json) return;
      if (current?.resource !== resource) {
        end();
        current = { resource, started: Date.now(), rows: 0, printed: Date.now() };
      }
      current.rows = rows;
      if (Date.now() - current.printed >= 5000) {
        current.printed = Date.now();
        process.stderr.write(`${verb} ${resource}: ${describe(rows, undefined, undefined, Date.now() - current.started)}\n`);
      }
    },
    end,
  };
}

/** What --resume must find unchanged: what decides which records are sent, and how they look. */
function fingerprint(flags: CopyFlags, resources: CopyResource[], masker: Masker): string {
  const parts = {
    resources,
    where: flags.where,
    limit: flags.limit ?? null,
    sample: flags.sample ?? null,
    mask: flags.mask ?? null,
    masked: masker.active,
    key: masker.keyId,
    batch: flags.batchSize,
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/**
 * No webhook storm by surprise: deliveries of the target sandbox are paused while the copy runs
 * (POST /_sandbox/webhook_pause, renewed; a lease, so a killed copy cannot leave them off), and
 * resumed after. Events of the copy are recorded, never delivered. --with-webhooks leaves them on.
 */
async function pauseWebhooks(
  options: GlobalOptions,
  target: CrmClient,
  targetIsSandbox: boolean,
  withWebhooks: boolean,
): Promise<{ stop(): Promise<void> } | undefined> {
  if (withWebhooks) return undefined;
  if (!targetIsSandbox) {
    note(options, 'the target is not a sandbox: its webhook deliveries cannot be paused, and each copied record is delivered as any write is.');
    return undefined;
  }
  const pauseFor = () => target.request('POST', '/_sandbox/webhook_pause', { body: { seconds: PAUSE_SECONDS } });
  try {
    await pauseFor();
  } catch (error) {
    if (error instanceof CrmApiError && error.status === 403) {
      throw new SyncUsageError(
        "Pausing the target's webhook deliveries needs its sandbox admin key (the one `crm sandbox start` prints). Use it, or pass --with-webhooks to copy with deliveries on.",
      );
    }
    throw error;
  }
  const timer = setInterval(() => void pauseFor().catch(() => {}), (PAUSE_SECONDS / 3) * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await target.request('DELETE', '/_sandbox/webhook_pause').catch(() => {});
    },
  };
}

function printReport(report: CopyReport, json: boolean, masked: boolean): void {
  const entries = Object.entries(report.resources);
  const total = { created: 0, updated: 0, unchanged: 0, failed: 0, deleted_in_source: 0, pruned: 0 };
  for (const [, s] of entries) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += s[k];
  if (json) {
    return printJson({
      summary: total,
      resources: report.resources,
      results_dir: report.resultsDir,
      duration_ms: report.durationMs,
      masked,
      ...(report.fields ? { fields: report.fields } : {}),
      ...(report.plan ? { plan: true } : {}),
      ...(report.stopped ? { stopped: report.stopped } : {}),
    });
  }
  const out = process.stdout;
  const rows = total.created + total.updated + total.unchanged + total.failed;
  out.write(
    `${bold(report.plan ? 'Plan' : 'Copied')} ${rows.toLocaleString('en')} records in ${duration(report.durationMs / 1000)}${report.plan ? dim(' (nothing was written)') : ''}${masked ? '' : dim(' (not masked)')}\n`,
  );
  if (report.fields?.created.length)
    out.write(`  fields    ${report.plan ? 'define' : 'defined'} ${report.fields.created.length} in the target: ${report.fields.created.join(', ')}\n`);
  if (report.fields?.updated.length) out.write(`  fields    ${report.plan ? 'add' : 'added'} the source's options to ${report.fields.updated.join(', ')}\n`);
  for (const [resource, s] of entries) {
    const line = `${resource.padEnd(9)} ${report.plan ? 'create' : 'created'} ${s.created} · ${report.plan ? 'update' : 'updated'} ${s.updated} · unchanged ${s.unchanged} · failed ${s.failed}`;
    const gone = s.deleted_in_source
      ? ` · deleted in source ${s.deleted_in_source}${s.pruned ? `, pruned ${s.pruned}` : report.plan ? ' (would prune with --prune)' : ' (--prune to delete)'}`
      : '';
    out.write(`  ${s.failed ? yellow(line + gone) : green(line + gone)}\n`);
  }
  if (report.stopped) out.write(`${red('Stopped early')}: ${report.stopped}\n  Rerun the same command with --resume to go on.\n`);
  if (!report.plan) out.write(`  Results: ${report.resultsDir}/${total.failed ? ' (see <resource>/failed.csv for the reasons)' : ''}\n`);
}
