import { soak } from './soak.js';

/**
 * `npm run soak -- --minutes N [--seed S] [--import-rows R] [--json]`: the chaos soak (R: rows of
 * the import run through the kills, 50,000 by default). Prints the report and exits 1 when any
 * property failed (anything lost or doubled), 2 on bad arguments.
 */
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const minutes = Number(opt('minutes') ?? 1);
const seed = Number(opt('seed') ?? Math.floor(Math.random() * 2 ** 31));
if (!(minutes > 0) || !Number.isInteger(seed)) {
  console.error('usage: npm run soak -- --minutes N [--seed S]   (N > 0; S an integer)');
  process.exit(2);
}
const rows = opt('import-rows');
const report = await soak({ seconds: minutes * 60, seed, ...(rows ? { importRows: Number(rows) } : {}), log: (l) => console.log(l) });
const { failures, ...figures } = report;
console.log(
  args.includes('--json')
    ? JSON.stringify(report)
    : Object.entries(figures)
        .map(([k, v]) => `${k.padEnd(22)} ${v}`)
        .join('\n'),
);
for (const f of failures) console.log(`FAIL ${f}`);
console.log(failures.length ? `soak: ${failures.length} properties failed` : 'soak: nothing lost, nothing doubled');
process.exitCode = failures.length ? 1 : 0;
