// The floor for GET /v1/deals?limit=50 (docs/benchmarks.md): bare node:http serving deals stored as JSON
// documents in SQLite, one prepared statement, the documents joined into the page. It does no more
// than read stored JSON and write it out: no framework, no auth, no validation, no logging, no
// conversion. Whatever the sandbox spends above this is the cost of those layers.
// With --rows it is the earlier reference instead: the deals' rows read from the sandbox's file and
// turned into the page in JavaScript on every request (the figure docs/benchmarks.md quotes, 2,891 req/s).
// With --fastify, the stored documents served by a bare Fastify 5 route (no hooks, no validation,
// no logger): what the framework alone costs over node:http.
//
// Usage: node bench/reference-server.js <sqlite file> [--rows | --fastify] -> prints {"base_url": ...} when listening.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import http from 'node:http';
// The same money conversion as the sandbox, so both answer the same deals.
import { toMajor } from '../dist/domain/money.js';

const file = process.argv[2];
const rowsMode = process.argv[3] === '--rows';
const fastifyMode = process.argv[3] === '--fastify';
if (!file) {
  console.error('usage: node bench/reference-server.js <sqlite file>');
  process.exit(2);
}

/** A row as the API shows it: value in major units, JSON columns parsed (same key order). */
function deal(row) {
  const { value_minor, id, external_id, title, ...rest } = row;
  rest.tags = JSON.parse(rest.tags);
  rest.custom_fields = JSON.parse(rest.custom_fields);
  return { id, external_id, title, value: toMajor(value_minor, rest.currency), ...rest };
}

// The documents, made once from the sandbox's deals (read-only: the sandbox owns its file) into a
// file of the reference's own.
const source = new Database(file, { readonly: true, fileMustExist: true });
const docsFile = `${file}.reference-docs`;
rmSync(docsFile, { force: true });
const db = new Database(docsFile);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE docs (id TEXT PRIMARY KEY, doc TEXT NOT NULL) STRICT');
const insert = db.prepare('INSERT INTO docs VALUES (?, ?)');
db.transaction(() => {
  for (const row of source.prepare('SELECT * FROM deals').iterate()) insert.run(row.id, JSON.stringify(deal(row)));
})();
const page = db.prepare('SELECT id, doc FROM docs ORDER BY id LIMIT ?').raw(true);
const rowsPage = source.prepare('SELECT * FROM deals ORDER BY id LIMIT ?');
const pageOfRows = (limit) => rowsPage.all(limit).map((row) => [row.id, JSON.stringify(deal(row))]);

function listDeals(limit) {
  const rows = rowsMode ? pageOfRows(limit + 1) : page.all(limit + 1);
  // limit + 1 rows tell whether another page exists, as in the sandbox's keyset pagination.
  // The cursor here is unsigned (the sandbox signs its cursors with an HMAC; that is its cost).
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const next = more ? JSON.stringify(Buffer.from(JSON.stringify({ a: [rows[limit - 1][0]] })).toString('base64url')) : 'null';
  return `{"data":[${rows.map((r) => r[1]).join(',')}],"next_cursor":${next}}`;
}

function send(res, status, value) {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const ready = (port) => process.stdout.write(JSON.stringify({ base_url: `http://127.0.0.1:${port}`, pid: process.pid }) + '\n');
const close = () => (db.close(), source.close(), rmSync(docsFile, { force: true }), process.exit(0));

if (fastifyMode) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.get('/v1/deals', async (request, reply) => {
    const limit = Number(request.query.limit ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return reply.code(400).send({ title: 'Bad limit' });
    return reply.type('application/json; charset=utf-8').send(listDeals(limit));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready(app.server.address().port);
  const shutdown = () => {
    app.close().then(close);
    app.server.closeAllConnections();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
} else {
  serveWithNodeHttp();
}

function serveWithNodeHttp() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== '/v1/deals') return send(res, 404, { title: 'Not Found' });
    const limit = Number(url.searchParams.get('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return send(res, 400, { title: 'Bad limit' });
    send(res, 200, listDeals(limit));
  });

  // keepAliveTimeout above autocannon's idle gaps, like Fastify's default of 72 s.
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => ready(server.address().port));

  const shutdown = () => {
    server.close(close);
    server.closeAllConnections(); // the load generator is done; do not wait for keep-alive timeouts
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
