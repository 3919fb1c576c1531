import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startReceiver } from '../../test/helpers/receiver.js';
import { tempDir } from '../../test/helpers/sandbox.js';
import { ChaosSandbox, SOAK_KEY, random, sleep } from './chaos.js';
import { check, type Figures } from './check.js';
import { newLedger, runLoad } from './load.js';

/**
 * One soak run: a sandbox on a SQLite file under the load of `load.ts`, killed and restarted by
 * `chaos.ts`, webhook endpoints whose receivers fail a third of the time; then a last restart, a
 * wait for the (scaled) retry schedule to drain, and the checker.
 */
export interface SoakReport extends Figures {
  seed: number;
  seconds: number;
  kills: number;
  requests: number;
  connectionErrors: number;
  idempotencyKeys: number;
  failures: string[];
}

const WORKERS = 4;

export async function soak(options: { seconds: number; seed: number; log?: (line: string) => void }): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const dir = tempDir('crm-soak-');
  const sandbox = new ChaosSandbox(join(dir.path, 'soak.db'), ['--webhook-time-scale', '0.001']);
  // One receiver fails a third of the time (503), at random but reproducibly for a seed. At most 3
  // times in a row for one event: the contract gives up after 8 attempts, so an endpoint failing
  // independently would lose (1/3)^8 of all events by design (about 1 in 6,500), which is no bug.
  const failing = random(options.seed + 1);
  const flaky = await startReceiver(({ seen }) => (seen < 3 && failing() < 1 / 3 ? 503 : 200));
  const steady = await startReceiver(() => 200);
  try {
    await sandbox.start();
    for (const receiver of [flaky, steady]) {
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
    const progress = setInterval(() => log(`soak: ${sandbox.kills} kills, ${ledger.requests} requests`), 10_000);
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => runLoad(sandbox, ledger, random(options.seed * 31 + w), () => Date.now() > end, w)));
    sandbox.stop();
    await kills;
    clearInterval(progress);
    log(`soak: load over after ${sandbox.kills} kills; waiting for the deliveries to drain`);
    await drain(sandbox.db);
    await sandbox.current?.stop('SIGTERM');
    const { failures, figures } = check(sandbox.db, ledger, [
      { name: 'flaky receiver', received: flaky.received },
      { name: 'steady receiver', received: steady.received },
    ]);
    return { seed: options.seed, seconds: options.seconds, kills: sandbox.kills, requests: ledger.requests, connectionErrors: ledger.connectionErrors, idempotencyKeys: ledger.keys.size, ...figures, failures };
  } finally {
    await sandbox.current?.stop('SIGKILL');
    await flaky.close();
    await steady.close();
    dir.remove();
  }
}

/** Waits (up to 120 s, longer than the whole scaled schedule) until no delivery is pending. */
async function drain(dbPath: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const db = new Database(dbPath, { readonly: true });
    // A failed attempt keeps its next_attempt_at as history; the retry itself is a new pending row.
    const pending = db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck().get() as number;
    db.close();
    if (pending === 0) return;
    await sleep(250);
  }
}
