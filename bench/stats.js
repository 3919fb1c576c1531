import { fileURLToPath } from 'node:url';
// Small number helpers shared by the benchmark modules.

export const round = (n, digits = 2) => Number(n.toFixed(digits));

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A results row of timings in ms: their median, least and most, and how many runs. */
export function timingRow(name, values) {
  return { name, median_ms: round(median(values), 1), min_ms: round(Math.min(...values), 1), max_ms: round(Math.max(...values), 1), runs: values.length };
}

/** The p-th percentile (0–100) of a list of numbers: the smallest value with p % of them at or below it. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * One row from the rows of several rounds of the same case: the median of each figure, counts
 * summed. Medians, because on a shared machine one round can be hit by unrelated work.
 */
export function medianRow(rows) {
  const [first] = rows;
  const out = { name: first.name };
  for (const key of Object.keys(first)) {
    if (key === 'name') continue;
    const values = rows.map((r) => r[key]);
    if (values.some((v) => typeof v !== 'number')) out[key] = null;
    else out[key] = key === 'requests' || key === 'failures' ? values.reduce((a, b) => a + b, 0) : round(median(values));
  }
  if (rows.length > 1) out.rounds = rows.length;
  return out;
}

/** Runs `main` with the command line's arguments when `url` is the script node was started with; exit 1 with the stack on failure. */
export function runIfMain(url, main) {
  if (process.argv[1] !== fileURLToPath(url)) return;
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
