// The floor of what the contract makes an import write, for bench/sync.js: the rows of a generated
// leads CSV (as writeLeads makes them: no quoted cells) written as leads with their lead.created
// events into a fresh sandbox database (its migrations: every index; WAL, synchronous = NORMAL) by
// the sqlite3 CLI alone: `.import` into an in-memory staging table, then two INSERT … SELECT in
// one transaction, the event's JSON made by json_object() as the list pages make it. No Node, no
// HTTP, no JSON parsing, no validation, no per-batch commits: a lower bound for any server that
// keeps the API's rules (a stored event per record: docs/reference/events.md, docs/api.md#bulk-api) on this schema.
// With `clients`, a clients file (as writeClients makes it): each client, its contact person, its
// search mark (the triggers'; not its search row, which the sandbox has made before each commit
// since search rows are made at each commit: the floor is the one earlier rounds compared with) and its client.created event with the client's JSON and contacts, by the SQLite inside better-sqlite3
// (Debian's sqlite3 3.40 lacks ORDER BY in aggregates, which the contacts SQL uses): the rows
// are staged in a temporary table first, untimed, then one db.exec of the same kind of script.
// Usage: node bench/sql-floor.js FILE.csv DB [clients]; prints {"rows", "ms"} (ms: the sqlite3 run only).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDb } from '../dist/store/db.js';
import { clientJsonSql } from '../dist/store/clients.js';
import { rowJsonSql } from '../dist/store/list-json.js';
import { CsvParser } from '../dist/sync/csv/parser.js';

const SQLITE = '/usr/bin/sqlite3';
const [file, dbPath, resource = 'leads'] = process.argv.slice(2);

const db = openDb(dbPath);
const leadJson = rowJsonSql(db, { table: 'leads', json: ['tags', 'custom_fields'] });
const clientJson = clientJsonSql(db);
db.close();

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ')";
const TAGS = `iif(tags = '', '[]', '["' || replace(tags, '|', '","') || '"]')`;

const clientsScript = `
BEGIN;
INSERT INTO clients (id, external_id, name, kind, email, phone, website, address, tags, custom_fields, created_at, updated_at)
SELECT printf('cli_%026d', rowid), external_id, name, kind, email, phone, website,
       json_object('line1', "address.line1", 'city', "address.city", 'country', "address.country"), ${TAGS},
       json_object('tier', "custom.tier"), ${NOW}, ${NOW}
FROM temp.csv_rows;
INSERT INTO contacts (id, client_id, first_name, last_name, email, role, is_primary, created_at, updated_at)
SELECT printf('con_%026d', rowid), printf('cli_%026d', rowid), "contact.first_name", "contact.last_name", "contact.email",
       "contact.role", 1, ${NOW}, ${NOW}
FROM temp.csv_rows;
INSERT INTO events (id, type, object_id, data, created_at)
SELECT printf('evt_%026d', rowid), 'client.created', id, ${clientJson}, created_at FROM clients;
COMMIT;
`;

// Ids have the sandbox's length (prefix + 26 characters) and order; tags 'a|b' become ["a","b"].
const leadsScript = `
PRAGMA synchronous = NORMAL;
PRAGMA temp_store = MEMORY;
.mode csv
.import --schema temp '${file}' csv_rows
BEGIN;
INSERT INTO leads (id, external_id, first_name, last_name, email, phone, company, title, source, status, notes,
                   tags, custom_fields, created_at, updated_at)
SELECT printf('lead_%026d', rowid), external_id, first_name, last_name, email, phone, company, title, source, status, notes,
       ${TAGS}, json_object('score', "custom.score"), ${NOW}, ${NOW}
FROM temp.csv_rows;
INSERT INTO events (id, type, object_id, data, created_at)
SELECT printf('evt_%026d', rowid), 'lead.created', id, ${leadJson}, created_at FROM leads;
COMMIT;
SELECT count(*) FROM leads;
`;

if (resource === 'clients') {
  const clients = openDb(dbPath);
  const parser = new CsvParser(',');
  const [header, ...rows] = [...parser.push(readFileSync(file, 'utf8')), ...parser.end()];
  clients.exec(`CREATE TEMP TABLE csv_rows (${header.values.map((c) => `"${c}"`).join(', ')})`);
  const stage = clients.prepare(`INSERT INTO temp.csv_rows VALUES (${header.values.map(() => '?').join(', ')})`);
  clients.transaction(() => rows.forEach((row) => stage.run(row.values)))();
  const started = performance.now();
  clients.exec(clientsScript);
  const ms = performance.now() - started;
  const count = clients.prepare('SELECT count(*) FROM clients').pluck().get();
  clients.close();
  process.stdout.write(JSON.stringify({ rows: count, ms }) + '\n');
} else {
  const started = performance.now();
  const run = spawnSync(SQLITE, [dbPath], { input: leadsScript, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0 || run.stderr) throw new Error(`sqlite3 failed (${run.status}): ${run.stderr}`);
  process.stdout.write(JSON.stringify({ rows: Number(run.stdout.trim()), ms }) + '\n');
}
