// Types of open-loop.js for the TypeScript tests that exercise it (the bench itself is plain ESM).
export interface OpenLoopOptions {
  url: string;
  headers?: Record<string, string>;
  rate: number;
  seconds: number;
  connections?: number;
  /** A request with no answer this long after it was sent fails (10 s by default, as autocannon's). */
  timeoutMs?: number;
}
export function openLoop(options: OpenLoopOptions): Promise<{ latencies: number[]; failures: number }>;
export function measureOpenLoop(
  name: string,
  request: { url: string; headers?: Record<string, string> },
  load: { rate: number; connections: number; duration: number; pid: number },
): Promise<Record<string, string | number | null>>;
