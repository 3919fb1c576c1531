import { startSandboxProcess, type RunningSandbox } from '../../test/helpers/sandbox.js';

/** A seeded PRNG (mulberry32): the same seed gives the same load and the same kill moments. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const SOAK_KEY = 'crm_test_soakSoakSoakSoakSoakSoakSoak1';

/**
 * The sandbox under test: one process on one SQLite file, killed with SIGKILL at random moments
 * (every 5–20 s) and restarted on the same file and port.
 */
export class ChaosSandbox {
  current: RunningSandbox | undefined;
  kills = 0;
  private stopped = false;
  constructor(
    readonly db: string,
    private readonly args: string[],
  ) {}

  get baseUrl(): string {
    return this.current?.baseUrl ?? 'http://127.0.0.1:1';
  }

  /** The first start picks a free port; restarts take the same one, so `crm listen` can reconnect. */
  async start(): Promise<void> {
    const port = this.current ? ['--port', new URL(this.current.baseUrl).port] : [];
    this.current = await startSandboxProcess(['--no-seed', '--api-key', SOAK_KEY, '--rate-limit', '0', '--quota', '0', ...port, ...this.args], { db: this.db });
  }

  /** Kills and restarts until `stop`; resolves when the loop ends with a running sandbox. */
  async killLoop(rand: () => number): Promise<void> {
    while (!this.stopped) {
      const wait = 5_000 + rand() * 15_000;
      const deadline = Date.now() + wait;
      while (!this.stopped && Date.now() < deadline) await sleep(Math.min(250, deadline - Date.now()));
      if (this.stopped) break;
      await this.current!.stop('SIGKILL');
      this.kills++;
      await this.start();
    }
  }

  stop(): void {
    this.stopped = true;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
