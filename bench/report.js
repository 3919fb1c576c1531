// Output of a run: a plain-text table for the terminal, bench/.out/results.json for machines,
// and bench/.out/results.md, a Markdown snippet the README can quote as it is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OUT_DIR = fileURLToPath(new URL('./.out/', import.meta.url));

/** Columns of a benchmark's table: the union of its rows' keys, in first-seen order. */
function columns(rows) {
  const keys = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
  return keys;
}

const cell = (value) => (value === undefined || value === null ? '' : String(value));

function textTable(rows) {
  const keys = columns(rows);
  const body = rows.map((row) => keys.map((k) => cell(row[k])));
  const widths = keys.map((k, i) => Math.max(k.length, ...body.map((r) => r[i].length)));
  // Names left-aligned, numbers right-aligned, as one reads them.
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(keys), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function markdownTable(rows) {
  const keys = columns(rows);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(keys), line(keys.map((_, i) => (i === 0 ? ':--' : '--:'))), ...rows.map((row) => line(keys.map((k) => cell(row[k]))))].join('\n');
}

/** Derived figures (ratios), printed under their table. */
function figureLines(figures = {}, markdown = false) {
  const lines = Object.entries(figures).map(([k, v]) => (markdown ? `- ${k}: ${v}` : `  ${k}: ${v}`));
  return lines.length ? (markdown ? '\n\n' : '\n') + lines.join('\n') : '';
}

const mark = (check) => (check.pass ? 'pass' : 'MISS');

/** Prints results (an array of { name, rows, checks, figures }) and writes the two files. */
export function report(results, meta) {
  const checks = results.flatMap((r) => r.checks ?? []);
  const text = [
    `crm bench: ${meta.date}, Node ${meta.node}, ${meta.cpus} CPUs (${meta.cpu_model}), load ${meta.duration_s} s x ${meta.connections} connections x ${meta.rounds} round(s), load average ${meta.loadavg_1m_at_start}`,
    ...results.map((r) => `\n[${r.name}]\n${textTable(r.rows)}${figureLines(r.figures)}`),
    '\nTargets (reported, never fatal):',
    ...checks.map((c) => `  ${mark(c)}  ${c.name}: ${c.actual}`),
  ];
  process.stdout.write(text.join('\n') + '\n');

  mkdirSync(OUT_DIR, { recursive: true });
  const json = { ...meta, benchmarks: Object.fromEntries(results.map((r) => [r.name, { rows: r.rows, figures: r.figures ?? {}, checks: r.checks ?? [] }])) };
  writeFileSync(`${OUT_DIR}results.json`, JSON.stringify(json, null, 2) + '\n');

  const md = [
    `Measured ${meta.date} with Node ${meta.node} on ${meta.cpus} CPUs (${meta.cpu_model}); ` +
      `autocannon, ${meta.connections} connections, ${meta.duration_s} s after a ${meta.warmup_s} s warm-up, ` +
      `median of ${meta.rounds} round(s) ` +
      `(1-minute load average at start: ${meta.loadavg_1m_at_start}).`,
    ...results.map((r) => `\n**${r.name}**\n\n${markdownTable(r.rows)}${figureLines(r.figures, true)}`),
    '\n| Target | Measured | |\n| :-- | --: | :-- |',
    ...checks.map((c) => `| ${c.name} | ${c.actual} | ${mark(c)} |`),
  ];
  writeFileSync(`${OUT_DIR}results.md`, md.join('\n') + '\n');
  process.stdout.write(`\nWrote ${OUT_DIR}results.json and results.md\n`);
}
