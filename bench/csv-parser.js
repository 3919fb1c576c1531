// Benchmark "csv": the import's CSV parser (src/sync/csv/parser.ts) alone, file by file in a child
// process each (bench/csv-parse-file.js), as `crm sync import` reads a file: 64 KiB at a time.
//   - the common path: a generated leads file (BENCH_CSV_ROWS rows, default 1M), median of
//     BENCH_CSV_REPEAT runs (default 5);
//   - a quote never closed (docs/benchmarks.md#the-csv-parser): a row whose quoted field runs to the end of a 3 MB and a
//     30 MB file, with the default cap (it must stop at the cap: the same time and memory for both)
//     and with the cap above the field (it must read it in time linear in its length: the 30 MB
//     one ~10 times the 3 MB one, not ~100).
// BENCH_CSV_BASELINE=path/to/another/csv-parser.js runs every case with that build of the parser
// too, alternating with this one (e.g. the parser before a change, copied out of its dist/).
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLeads } from './sync.js';
import { median, round } from './stats.js';

const CHILD = fileURLToPath(new URL('./csv-parse-file.js', import.meta.url));
const PARSER = fileURLToPath(new URL('../dist/sync/csv/parser.js', import.meta.url));
const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_CSV_REPEAT ?? 5);
const MB = 1024 * 1024;

/** Rows of leads, then one whose notes open a quote that is never closed: `mb` MB of text with commas and line breaks. */
function writeUnclosed(path, mb) {
  const fd = openSync(path, 'w');
  writeSync(fd, 'external_id,first_name,notes\n');
  for (let i = 1; i <= 100; i++) writeSync(fd, `ext-${i},Ann,fine\n`);
  writeSync(fd, 'ext-101,Bob,"this note never ends');
  const filler = 'lorem ipsum, dolor sit amet\n'.repeat(Math.ceil(MB / 28)).slice(0, MB);
  for (let i = 0; i < mb; i++) writeSync(fd, filler);
  closeSync(fd);
}

function parseOnce(parser, file, maxField) {
  return JSON.parse(execFileSync(process.execPath, [CHILD, parser, file, ...(maxField ? [String(maxField)] : [])], { encoding: 'utf8' }));
}

/** Runs each case with each parser, alternating, and gives one row per case and parser: medians. */
function measure(cases, parsers, repeat) {
  const runs = new Map();
  for (let i = 0; i < repeat; i++) {
    for (const c of cases) {
      for (const [tag, parser] of parsers) {
        const key = `${c.name} (${tag})`;
        if (!runs.has(key)) runs.set(key, []);
        runs.get(key).push(parseOnce(parser, c.file, c.maxField));
      }
    }
  }
  return [...runs].map(([name, results]) => ({
    name,
    median_ms: round(median(results.map((r) => r.ms)), 1),
    peak_rss_mb: round(median(results.map((r) => r.peakMb)), 1),
    rows: results[0].rows,
    ended_with: results[0].error ? results[0].error.slice(0, 60) : 'end of file',
  }));
}

export async function run(ctx) {
  const parsers = [['this build', PARSER], ...(process.env.BENCH_CSV_BASELINE ? [['baseline', process.env.BENCH_CSV_BASELINE]] : [])];
  const leads = join(ctx.tmp, 'csv-leads.csv');
  await writeLeads(leads, ROWS);
  const unclosed3 = join(ctx.tmp, 'csv-unclosed-3mb.csv');
  const unclosed30 = join(ctx.tmp, 'csv-unclosed-30mb.csv');
  writeUnclosed(unclosed3, 3);
  writeUnclosed(unclosed30, 30);

  const rows = [
    ...measure([{ name: `${ROWS.toLocaleString('en')} leads`, file: leads }], parsers, REPEAT),
    ...measure(
      [
        { name: 'quote never closed, 3 MB, default cap', file: unclosed3 },
        { name: 'quote never closed, 30 MB, default cap', file: unclosed30 },
        { name: 'quote never closed, 3 MB, cap 100M', file: unclosed3, maxField: 100 * MB },
        { name: 'quote never closed, 30 MB, cap 100M', file: unclosed30, maxField: 100 * MB },
      ],
      parsers,
      3,
    ),
  ];
  const ms = (name) => rows.find((r) => r.name === name)?.median_ms;
  const ratio = (a, b) => (ms(a) && ms(b) ? round(ms(a) / ms(b), 1) : 'n/a');
  const figures = {};
  for (const [tag] of parsers) {
    figures[`30 MB / 3 MB time, cap above the field (${tag}; linear ≈ 10)`] = ratio(
      `quote never closed, 30 MB, cap 100M (${tag})`,
      `quote never closed, 3 MB, cap 100M (${tag})`,
    );
  }
  return { rows, figures };
}
