import { request } from 'undici';
import { parseSse } from '../../src/client/sse.js';
import { SOAK_KEY, sleep, type ChaosSandbox } from './chaos.js';

/**
 * A client of GET /v1/events/stream through the kills: it starts from the beginning, records the
 * id of every event message it fully received, and after each drop reconnects (the sandbox may be
 * down: it tries again every 200 ms) with Last-Event-ID set to the last of them.
 */
export class SseReader {
  readonly ids: string[] = [];
  reconnects = 0;
  private stopped = false;
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly sandbox: ChaosSandbox) {}

  start(): void {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.abort = new AbortController();
      const last = this.ids.at(-1);
      try {
        const res = await request(`${this.sandbox.baseUrl}/v1/events/stream${last ? '' : '?after=evt_'}`, {
          headers: { authorization: `Bearer ${SOAK_KEY}`, ...(last ? { 'last-event-id': last } : {}) },
          signal: this.abort.signal,
        });
        if (res.statusCode !== 200) {
          await res.body.dump();
        } else {
          for await (const m of parseSse(res.body)) if (m.hasData && m.id) this.ids.push(m.id);
        }
      } catch {
        // the sandbox was killed, or stop() aborted the request
      }
      if (this.stopped) break;
      this.reconnects++;
      await sleep(200);
    }
  }

  /** Waits until the last id read is `lastId` (the newest event), for at most `timeoutMs`. */
  async catchUp(lastId: string | undefined, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (lastId && this.ids.at(-1) !== lastId && Date.now() < deadline) await sleep(100);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    await this.loop;
  }
}
