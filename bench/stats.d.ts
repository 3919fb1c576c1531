// Types of stats.js for the TypeScript tests that use it (the bench itself is plain ESM).
export const round: (n: number, digits?: number) => number;
export function median(values: number[]): number;
export function percentile(values: number[], p: number): number;
export function timingRow(name: string, values: number[]): { name: string; median_ms: number; min_ms: number; max_ms: number; runs: number };
export function medianRow(rows: Record<string, unknown>[]): Record<string, unknown>;
