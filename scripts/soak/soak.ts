import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startReceiver } from '../../test/helpers/receiver.js';
import { tempDir } from '../../test/helpers/sandbox.js';
import { ChaosSandbox, SOAK_KEY, random, sleep } from './chaos.js';
import { check, type Figures } from './check.js';
import { importThroughChaos } from './importer.js';
import { startListener } from './listener.js';
import { newLedger, runLoad } from './load.js';
import { SseReader } from './sse-reader.js';

/**
 * One soak run: a sandbox on a SQLite file under the load of `load.ts`, killed and restarted by
 * `chaos.ts`; webhook endpoints whose receivers fail a third of the time, or answer at once, or
 * now and then hang; an SSE reader and `crm listen` following the events; a `crm sync import`
 * rerun with --resume until it completes. Then the retry schedule drains, the followers catch up,
 * and the checker reads the file.
 */
export interface SoakReport extends Figures {
  seed: number;
  seconds: number;
  kills: number;
  requests: number;
  connectionErrors: number;
  idempotencyKeys: number;
  importRows: number;
  importRuns: number;
  hangs: number;
  sseEvents: number;
  sseReconnects: number;
  listenForwarded: number;
  failures: string[];
}

const WORKERS = 4;

/**
 * The hanging receiver lets a first attempt hang at most this often: each holds one of the
 * worker's 64 slots for the 15 s timeout, so a share of all events would starve the others.
 */
const HANG_EVERY_MS = 2_000;
/** How long the retry schedule, crm listen and the SSE reader get to finish after the load. */
const SETTLE_MS = 300_000;

export async function soak(options: { seconds: number; seed: number; importRows?: number; log?: (line: string) => void }): Promise<SoakReport> {
  const importRows = options.importRows ?? 50_000;
  const log = options.log ?? (() => {});
  const dir = tempDir('crm-soak-');
  const sandbox = new ChaosSandbox(join(dir.path, 'soak.db'), ['--webhook-time-scale', '0.001']);
  // One receiver fails a third of the time (503), at random but reproducibly for a seed. At most 3
  // times in a row for one event: the contract gives up after 8 attempts, so an endpoint failing
  // independently would lose (1/3)^8 of all events by design (about 1 in 6,500), which is no bug.
  const failing = random(options.seed + 1);
  const flaky = await startReceiver(({ seen }) => (seen < 3 && failing() < 1 / 3 ? 503 : 200));
  const steady = await startReceiver(() => 200);
  let lastHang = 0;
  const hangs = await startReceiver(({ seen }) => (seen === 0 && Date.now() - lastHang > HANG_EVERY_MS ? ((lastHang = Date.now()), 'hang') : 200));
  const reader = new SseReader(sandbox);
  let listener: Awaited<ReturnType<typeof startListener>> | undefined;
  try {
    await sandbox.start();
    reader.start();
    listener = await startListener(sandbox.baseUrl, dir.path);
    log('soak: sandbox, SSE reader and crm listen running');
    for (const receiver of [flaky, steady, hangs]) {
      const res = await fetch(`${sandbox.baseUrl}/v1/webhook_endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SOAK_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, enabled_events: ['*'] }),
      });
      if (res.status !== 201) throw new Error(`webhook endpoint: ${res.status} ${await res.text()}`);
    }
    const ledger = newLedger();
    const end = Date.now() + options.seconds * 1000;
    const kills = sandbox.killLoop(random(options.seed + 2));
    const progress = setInterval(() => log(`soak: ${sandbox.kills} kills, ${ledger.requests} requests, ${reader.ids.length} events streamed`), 10_000);
    const imported = importThroughChaos(sandbox, dir.path, importRows);
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => runLoad(sandbox, ledger, random(options.seed * 31 + w), () => Date.now() > end, w)));
    sandbox.stop();
    await kills;
    clearInterval(progress);
    log(`soak: load over after ${sandbox.kills} kills; finishing the import, draining the deliveries`);
    const importResult = await imported;
    log(`soak: import ${importResult.done ? 'complete' : 'NOT complete'} after ${importResult.runs} run(s)`);
    if (importResult.done) for (const marker of importResult.markers) ledger.confirmed.add(marker);
    await drain(sandbox.db);
    log('soak: deliveries drained; the SSE reader and crm listen catch up');
    // The followers catch up with the newest event before anything is compared.
    const newest = newestEvent(sandbox.db);
    await reader.catchUp(newest, SETTLE_MS);
    const deadline = Date.now() + SETTLE_MS;
    while (newest && !listener.receiver.received.some((r) => r.id === newest) && Date.now() < deadline) await sleep(100);
    await reader.stop();
    await listener.stop();
    await sandbox.current?.stop('SIGTERM');
    const { failures, figures } = check(
      sandbox.db,
      ledger,
      [
        { name: 'flaky receiver', received: flaky.received },
        { name: 'steady receiver', received: steady.received },
        { name: 'hanging receiver', received: hangs.received },
      ],
      [
        { name: 'SSE reader', ids: reader.ids },
        { name: 'crm listen', ids: listener.receiver.received.filter((r) => r.status === 200).map((r) => r.id) },
      ],
    );
    if (!importResult.done) failures.push(`the import did not complete in ${importResult.runs} runs`);
    return {
      seed: options.seed,
      seconds: options.seconds,
      kills: sandbox.kills,
      requests: ledger.requests,
      connectionErrors: ledger.connectionErrors,
      idempotencyKeys: ledger.keys.size,
      importRows,
      importRuns: importResult.runs,
      hangs: hangs.received.filter((r) => r.status === 0).length,
      sseEvents: reader.ids.length,
      sseReconnects: reader.reconnects,
      listenForwarded: listener.receiver.received.length,
      ...figures,
      failures,
    };
  } finally {
    await reader.stop();
    await listener?.stop();
    await sandbox.current?.stop('SIGKILL');
    await flaky.close();
    await steady.close();
    await hangs.close();
    dir.remove();
  }
}

function newestEvent(dbPath: string): string | undefined {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT max(id) FROM events').pluck().get() as string | undefined;
  } finally {
    db.close();
  }
}

/** Waits (up to SETTLE_MS, far longer than the whole scaled schedule) until no delivery is pending. */
async function drain(dbPath: string): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  while (Date.now() < deadline) {
    const db = new Database(dbPath, { readonly: true });
    // A failed attempt keeps its next_attempt_at as history; the retry itself is a new pending row.
    const pending = db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck().get() as number;
    db.close();
    if (pending === 0) return;
    await sleep(250);
  }
}
