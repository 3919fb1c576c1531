// The floor of what the contract makes an import write, for bench/sync.js: the rows of a generated
// leads CSV (as writeLeads makes them: no quoted cells) written as leads with their lead.created
// events into a fresh sandbox database (its migrations: every index; WAL, synchronous = NORMAL) by
// the sqlite3 CLI alone: `.import` into an in-memory staging table, then two INSERT … SELECT in
// one transaction, the event's JSON made by json_object() as the list pages make it. No Node, no
// HTTP, no JSON parsing, no validation, no per-batch commits: a lower bound for any server that
// keeps API.md §7 and §8 (a stored event per record) on this schema.
// Usage: node bench/sql-floor.js FILE.csv DB; prints {"rows", "ms"} (ms: the sqlite3 run only).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { openDb } from '../dist/store/db.js';
import { rowJsonSql } from '../dist/store/list-json.js';

const SQLITE = '/usr/bin/sqlite3';
const [file, dbPath] = process.argv.slice(2);

const db = openDb(dbPath);
const leadJson = rowJsonSql(db, { table: 'leads', json: ['tags', 'custom_fields'] });
db.close();

// Ids have the sandbox's length (prefix + 26 characters) and order; tags 'a|b' become ["a","b"].
const script = `
PRAGMA synchronous = NORMAL;
PRAGMA temp_store = MEMORY;
.mode csv
.import --schema temp '${file}' csv_rows
BEGIN;
INSERT INTO leads (id, external_id, first_name, last_name, email, phone, company, title, source, status, notes,
                   tags, custom_fields, created_at, updated_at)
SELECT printf('lead_%026d', rowid), external_id, first_name, last_name, email, phone, company, title, source, status, notes,
       iif(tags = '', '[]', '["' || replace(tags, '|', '","') || '"]'), json_object('score', "custom.score"),
       strftime('%Y-%m-%dT%H:%M:%fZ'), strftime('%Y-%m-%dT%H:%M:%fZ')
FROM temp.csv_rows;
INSERT INTO events (id, type, object_id, data, created_at)
SELECT printf('evt_%026d', rowid), 'lead.created', id, ${leadJson}, created_at FROM leads;
COMMIT;
SELECT count(*) FROM leads;
`;

const started = performance.now();
const run = spawnSync(SQLITE, [dbPath], { input: script, encoding: 'utf8' });
const ms = performance.now() - started;
if (run.status !== 0 || run.stderr) throw new Error(`sqlite3 failed (${run.status}): ${run.stderr}`);
process.stdout.write(JSON.stringify({ rows: Number(run.stdout.trim()), ms }) + '\n');
