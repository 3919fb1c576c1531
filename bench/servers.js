// Starting the two servers under test as separate processes, exactly as a user would run them.
import http from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstJsonLine, stop, track } from './processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CRM = fileURLToPath(new URL('../bin/crm.js', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./reference-server.js', import.meta.url));

/**
 * The sandbox command line; `db` should be a fresh file so that it migrates and seeds. `crm`: the
 * bin/crm.js of another build (bench/dashboard-board-ab.js), this checkout's by default.
 */
export function sandboxArgs(db, extra = [], crm = CRM) {
  return [crm, 'sandbox', 'start', '--port', '0', '--json', '--db', db, ...extra];
}

// Under load the default rate limit (100/1s per key) would turn the run into a 429 benchmark.
// Limits too high to reach keep the limiter on its normal path, so its cost is still measured.
export const UNLIMITED = ['--rate-limit', '100000000/1s', '--quota', '100000000/1d'];

/** stdout is piped (the ready line), stderr inherited so a crash explains itself. */
export function spawnNode(args, cwd = ROOT) {
  return track(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Starts a sandbox and waits for its JSON line: { base_url, api_key, db, pid, stop() }. */
export async function startSandbox(db, extra = [], crm = CRM) {
  // In the database's folder: `crm sandbox start` writes .crm/sandbox.json where it runs (docs/sync.md#credentials).
  const child = spawnNode(sandboxArgs(db, extra, crm), dirname(db));
  const info = await firstJsonLine(child);
  return { ...info, stop: () => stop(child) };
}

/** Starts bench/reference-server.js on the same SQLite file (`--rows`: the earlier one): { base_url, stop() }. */
export async function startReference(db, extra = []) {
  const child = spawnNode([REFERENCE, db, ...extra]);
  const info = await firstJsonLine(child);
  return { ...info, stop: () => stop(child) };
}

/**
 * One GET with node:http (already loaded, unlike fetch's undici, whose first use costs tens of
 * milliseconds and would land inside the readiness figure). Resolves with status and body.
 */
export function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
  });
}

/** Polls url every `everyMs` until it answers 200; connection refusals count as "not yet". */
export async function waitFor200(url, everyMs = 5, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await get(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
