// Benchmark "peers": the sandbox beside the tools a developer would otherwise reach for, on their
// home ground (docs/benchmarks.md): json-server 1.x (beta), json-server 0.17 (npm's `latest` tag) and
// Stoplight Prism 5 in mock mode on our own OpenAPI document. All are devDependencies, started here
// as separate processes with the Node that runs the bench, on the same data (the sandbox's seeded
// deals and leads exported into a db.json), and driven by the same load generator (load.js) in
// alternating rounds. The sandbox keeps everything on: auth, the rate limiter and quota (at limits
// too high to reach, as in http.js), the request log, usage metering and signed cursors.
//
// Measured for each: a page of 50 deals, a POST of a lead, and a cold start: spawn -> the first 200
// from that page (a fresh database each time: the sandbox migrates and seeds a new file, json-server
// reads a fresh copy of db.json, Prism reads the document), wall time and the server's CPU time.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { measure } from './load.js';
import { cpuMs, stop, track } from './processes.js';
import { UNLIMITED, get, sandboxArgs, startSandbox } from './servers.js';
import { median, medianRow, round } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (path) => join(ROOT, 'node_modules', path);
// BENCH_STARTS sets the cold starts per peer (default 11: with 5, the median of a start moved by a
// tenth between two runs on this 2-core machine); BENCH_PEERS_ONLY=start measures only the cold
// starts (no load rounds), for working on the start path.
const START_REPEAT = Number(process.env.BENCH_STARTS) > 0 ? Math.floor(Number(process.env.BENCH_STARTS)) : 11;
const ONLY_START = process.env.BENCH_PEERS_ONLY === 'start';
const LIST_TARGET = 1.2; // crm's list req/s over json-server's (docs/benchmarks.md)
const START_TARGET = 1.0; // crm's cold start over json-server's

/** A free TCP port on 127.0.0.1 (the peers take --port; polling starts at spawn time for all alike). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The peers. Each has `args(port, dir)` (node arguments), the list page and the POST on its own API,
 * and `prepare(dir)` that lays out a fresh database in dir for a start.
 */
function peers(data) {
  const leadBody = { first_name: 'Bench', email: 'b@example.com' };
  const freshDbJson = (dir) => copyFileSync(data.dbJson, join(dir, 'db.json'));
  return {
    crm: {
      // The sandbox as a user starts it; a new file each start, so it migrates and seeds.
      // A later --port wins over sandboxArgs' --port 0; --api-key makes the export's admin key the
      // admin key of every fresh file, so one key works for all starts (docs/sync.md#credentials).
      args: (port, dir) => sandboxArgs(join(dir, 'crm.db'), ['--port', String(port), '--api-key', data.apiKey, ...UNLIMITED]),
      list: '/v1/deals?limit=50',
      post: '/v1/leads',
      headers: () => ({ authorization: `Bearer ${data.apiKey}` }),
      body: leadBody,
      prepare: () => {},
    },
    'json-server 1.0.0-beta': {
      args: (port, dir) => [bin('json-server/lib/bin.js'), join(dir, 'db.json'), '--port', String(port), '--host', '127.0.0.1'],
      list: '/deals?_page=1&_per_page=50',
      post: '/leads',
      headers: () => ({}),
      body: leadBody,
      prepare: freshDbJson,
    },
    'json-server 0.17': {
      args: (port, dir) => [bin('json-server-v0/lib/cli/bin.js'), join(dir, 'db.json'), '--port', String(port), '--host', '127.0.0.1', '--quiet'],
      list: '/deals?_page=1&_limit=50',
      post: '/leads',
      headers: () => ({}),
      body: leadBody,
      prepare: freshDbJson,
    },
    'prism 5 (mock)': {
      // Stateless: answers from the document's examples and schemas; validates requests (so a key is sent).
      args: (port) => [bin('@stoplight/prism-cli/dist/index.js'), 'mock', data.openapi, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false'],
      list: '/v1/deals?limit=50',
      post: '/v1/leads',
      headers: () => ({ authorization: `Bearer ${data.apiKey}` }),
      body: leadBody,
      prepare: () => {},
    },
  };
}

/** Starts a peer on a free port; resolves once its list answers 200. */
async function startPeer(peer, dir) {
  peer.prepare(dir);
  const port = await freePort();
  const started = performance.now();
  // Output ignored: Prism logs every request, the sandbox prints its ready line; a pipe nobody
  // reads would block them. stderr inherited so a crash explains itself.
  const child = track(process.execPath, peer.args(port, dir), { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}${peer.list}`;
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`${peer.args(port, dir)[0]} exited with ${code} before answering`))));
  exited.catch(() => {});
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answered = await Promise.race([
      get(url, peer.headers()).then(
        (r) => r.status,
        () => 0,
      ),
      exited,
    ]);
    if (answered === 200) break;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const readyMs = performance.now() - started;
  return { child, baseUrl: `http://127.0.0.1:${port}`, readyMs, cpuMs: cpuMs(child.pid), stop: () => stop(child) };
}

/** All pages of a sandbox list, following next_cursor. */
async function listAll(baseUrl, path, headers) {
  const items = [];
  let cursor = null;
  do {
    const { status, body } = await get(`${baseUrl}${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers);
    if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${body.slice(0, 200)}`);
    const page = JSON.parse(body);
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

/** The seeded deals and leads as a db.json, the OpenAPI document, and the sandbox's admin key. */
async function exportData(dir) {
  const sandbox = await startSandbox(join(dir, 'export.db'), UNLIMITED);
  try {
    const headers = { authorization: `Bearer ${sandbox.api_key}` };
    const dbJson = join(dir, 'seed-db.json');
    const deals = await listAll(sandbox.base_url, '/v1/deals', headers);
    const leads = await listAll(sandbox.base_url, '/v1/leads', headers);
    writeFileSync(dbJson, JSON.stringify({ deals, leads }, null, 2));
    const openapi = join(dir, 'openapi.json');
    writeFileSync(openapi, (await get(`${sandbox.base_url}/v1/openapi.json`, headers)).body);
    return { dbJson, openapi, apiKey: sandbox.api_key, deals: deals.length, leads: leads.length };
  } finally {
    await sandbox.stop();
  }
}

export async function run(ctx) {
  const data = await exportData(ctx.tmp);
  const all = peers(data);
  const names = Object.keys(all);

  const load = { duration: ctx.duration };
  const rounds = [];
  let n = 0;
  for (let r = 0; r < (ONLY_START ? 0 : ctx.rounds); r++) {
    const round = {};
    for (const name of names) {
      const peer = all[name];
      const dir = join(ctx.tmp, `peer-${n++}`);
      mkdirSync(dir);
      const server = await startPeer(peer, dir);
      try {
        const headers = peer.headers();
        const opts = { ...load, pid: server.child.pid };
        round[name] = {
          list: await measure(`${name} GET ${peer.list}`, { url: server.baseUrl + peer.list, headers }, opts),
          post: await measure(
            `${name} POST ${peer.post}`,
            { url: server.baseUrl + peer.post, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(peer.body) },
            opts,
          ),
        };
      } finally {
        await server.stop();
      }
    }
    rounds.push(round);
  }

  // Cold starts, alternating between the peers so a burst of other load hits all alike, in the
  // opposite order every other round so that none always starts right after the same one.
  const starts = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
  for (let i = 0; i < START_REPEAT; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) {
      const dir = join(ctx.tmp, `start-${n++}`);
      mkdirSync(dir);
      const server = await startPeer(all[name], dir);
      await server.stop();
      starts[name].wall.push(server.readyMs);
      if (server.cpuMs !== null) starts[name].cpu.push(server.cpuMs);
    }
  }

  const startRows = names.map((name) => ({
    name: `${name} cold start -> first 200 of the list`,
    median_ms: round(median(starts[name].wall), 1),
    min_ms: round(Math.min(...starts[name].wall), 1),
    cpu_median_ms: starts[name].cpu.length ? round(median(starts[name].cpu), 1) : null,
    runs: starts[name].wall.length,
  }));
  const v1 = 'json-server 1.0.0-beta';
  const startRatio = median(starts.crm.wall) / median(starts[v1].wall);
  const startCheck = {
    name: `cold start to the first 200 <= ${START_TARGET}x json-server 1.x`,
    actual: `${round(startRatio, 2)}x (${round(median(starts.crm.wall), 1)} vs ${round(median(starts[v1].wall), 1)} ms)`,
    pass: startRatio <= START_TARGET,
  };
  const startFigures = {};
  for (const peer of names.slice(1)) {
    startFigures[`crm/${peer} cold start wall`] = round(median(starts.crm.wall) / median(starts[peer].wall), 2);
    if (starts.crm.cpu.length && starts[peer].cpu.length)
      startFigures[`crm/${peer} cold start CPU`] = round(median(starts.crm.cpu) / median(starts[peer].cpu), 2);
  }
  if (ONLY_START) return { rows: startRows, figures: startFigures, checks: [startCheck] };

  const list = Object.fromEntries(names.map((name) => [name, medianRow(rounds.map((r) => r[name].list))]));
  const post = Object.fromEntries(names.map((name) => [name, medianRow(rounds.map((r) => r[name].post))]));
  const figures = { seeded_deals: data.deals, seeded_leads: data.leads };
  for (const peer of names.slice(1)) {
    figures[`crm/${peer} list req/s`] = round(list.crm.rps / list[peer].rps, 2);
    figures[`crm/${peer} POST req/s`] = round(post.crm.rps / post[peer].rps, 2);
  }
  Object.assign(figures, startFigures);
  const listRatio = list.crm.rps / list[v1].rps;
  const measured = [...names.map((name) => list[name]), ...names.map((name) => post[name])];
  const failures = list.crm.failures + post.crm.failures;
  return {
    rows: [...measured, ...startRows],
    figures,
    checks: [
      {
        name: `list page of 50 >= ${LIST_TARGET}x json-server 1.x req/s`,
        actual: `${round(listRatio, 2)}x (${list.crm.rps} vs ${list[v1].rps})`,
        pass: listRatio >= LIST_TARGET,
      },
      startCheck,
      { name: 'no failed sandbox requests under load (peers)', actual: String(failures), pass: failures === 0 },
    ],
  };
}
