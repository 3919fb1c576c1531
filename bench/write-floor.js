// The sandbox's own write path alone, for bench/sync.js: the rows of a generated leads CSV (as
// writeLeads makes them: no quoted cells) built with newLead and written with insertLeads, the
// functions bulk uses, in transactions of 1000 into a fresh sandbox database with its migrations.
// That is every lead row, index entry and lead.created event an import writes, without HTTP, JSON,
// validation or the client: how much of an import the data model itself costs.
// Usage: node bench/write-floor.js FILE.csv DB; prints {"rows", "ms"}.
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { openDb } from '../dist/store/db.js';
import { BULK_CHECKPOINT_PAGES } from '../dist/store/checkpoints.js';
import { createField } from '../dist/services/fields.js';
import { createContext } from '../dist/services/context.js';
import { insertLeads, newLead } from '../dist/services/leads.js';

const [file, dbPath] = process.argv.slice(2);
const started = performance.now();
const ctx = createContext(openDb(dbPath));
ctx.db.pragma(`wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`); // as the bulk route writes (checkpoints.ts)
const write = ctx.db.transaction((leads) => insertLeads(ctx, leads));
let header;
let batch = [];
let rows = 0;
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  const cells = line.split(',');
  if (!header) {
    header = cells;
    // The custom columns are text fields, defined first: a record holds only keys its object defines.
    for (const name of header.filter((n) => n.startsWith('custom.'))) {
      createField(ctx, { object: 'lead', key: name.slice(7), label: name.slice(7), type: 'text', required: false });
    }
    continue;
  }
  const input = { custom_fields: {} };
  header.forEach((name, i) => {
    if (name.startsWith('custom.')) input.custom_fields[name.slice(7)] = cells[i];
    else if (name === 'tags') input.tags = cells[i] ? cells[i].split('|') : [];
    else input[name] = cells[i] || null;
  });
  batch.push(newLead(ctx, input));
  if (batch.length === 1000) {
    write(batch);
    rows += batch.length;
    batch = [];
  }
}
if (batch.length) write(batch);
rows += batch.length;
ctx.db.close();
process.stdout.write(JSON.stringify({ rows, ms: performance.now() - started }) + '\n');
