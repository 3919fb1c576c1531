import type { Ora } from 'ora';
import { terminalSafe } from './output.js';

/**
 * Progress of a long command, on stderr so that stdout stays for results: an ora spinner with
 * rows/s and ETA on a terminal, a plain line every 5 s elsewhere (CI logs), nothing with --json.
 */
export interface Progress {
  /** rows done; bytes and size (of the input file) give a share and an ETA when known. */
  update(rows: number, bytes?: number, size?: number): void;
  /** A notable moment (a retry); shown without disturbing the spinner. */
  note(message: string): void;
  stop(): void;
}

const PLAIN_EVERY_MS = 5000;

export async function startProgress(label: string, options: { json: boolean }): Promise<Progress> {
  if (options.json) return { update() {}, note() {}, stop() {} };
  const started = Date.now();
  const line = (rows: number, bytes?: number, size?: number) => `${label}: ${describe(rows, bytes, size, Date.now() - started)}`;
  // A terminal that reports no width (a pseudo-terminal without a size) would make ora's redraw loop forever.
  if (process.stderr.isTTY && process.stderr.columns > 0) {
    // Loaded only for a terminal: ora and its dependencies cost ~110 ms of CPU to load, which CI
    // runs and --json would pay for nothing.
    const { default: ora } = await import('ora');
    return spinner(ora({ text: `${label}…`, stream: process.stderr }).start(), line);
  }

  let lastPrint = started;
  return {
    update(rows, bytes, size) {
      if (Date.now() - lastPrint < PLAIN_EVERY_MS) return;
      lastPrint = Date.now();
      process.stderr.write(`${line(rows, bytes, size)}\n`);
    },
    note: (message) => process.stderr.write(`${terminalSafe(message)}\n`),
    stop() {},
  };
}

function spinner(spin: Ora, line: (rows: number, bytes?: number, size?: number) => string): Progress {
  return {
    update: (rows, bytes, size) => void (spin.text = line(rows, bytes, size)),
    note(message) {
      const text = spin.text;
      spin.warn(terminalSafe(message));
      spin.start(text);
    },
    stop: () => void spin.stop(),
  };
}

/** "12,000 rows · 8,100 rows/s · 45% · ETA 1m 05s" */
export function describe(rows: number, bytes: number | undefined, size: number | undefined, elapsedMs: number): string {
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const parts = [`${rows.toLocaleString('en')} rows`, `${Math.round(rows / seconds).toLocaleString('en')} rows/s`];
  if (bytes !== undefined && size) {
    const share = Math.min(1, bytes / size);
    parts.push(`${Math.floor(share * 100)}%`);
    if (share > 0.01) parts.push(`ETA ${duration((seconds * (1 - share)) / share)}`);
  }
  return parts.join(' · ');
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m}m ${String(Math.round(seconds % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
