import type { Worker } from 'node:worker_threads';
import { utf8Text } from '../../client/utf8.js';
import { existingWorkerScript } from '../../worker-script.js';
import { pageRenderer, type ListPage, type RenderedPage, type RenderSpec } from './render.js';

export interface Renderer {
  /**
   * A page's JSON, the bytes the server sent, as what it adds to the export file; pages are
   * rendered in the order given. The bytes are handed over: the caller must not use them after.
   */
  render(body: Buffer): Promise<RenderedPage>;
  /** True when pages are rendered on their own thread. */
  readonly threaded: boolean;
  close(): Promise<void>;
}

/**
 * Where the export turns pages into CSV: on a thread of its own when its script is there. The
 * export's client was busy ~85 % of its time on one core (JSON.parse of each page ~20 %, the
 * collections after it ~20 %, CSV ~17 %) while the machine's other core waited on the server
 * (docs/benchmarks.md); on a thread, page N is parsed and rendered while the main thread receives page N+1.
 * The main thread keeps the network, the file and the resume state. A page's bytes go to the
 * thread and its CSV comes back transferred, not copied, so that neither becomes a large string
 * on the main thread (V8 keeps strings over ~128 KB in its large-object space, which only a full
 * collection empties). The cost is a second V8 heap: a 1M-lead export peaks at 165–199 MB instead
 * of ~130 (docs/benchmarks-history.md).
 */
export function startRenderer(spec: RenderSpec, workerFile?: URL): Renderer {
  // The render thread's script is compiled beside this module (dist/sync/export/); tests name theirs.
  const script = existingWorkerScript(() => workerFile ?? new URL('./render-worker.js', import.meta.url));
  if (script) return new RenderThread(spec, script);
  const render = pageRenderer(spec);
  return { render: async (body) => render(JSON.parse(utf8Text(body)) as ListPage), threaded: false, close: async () => {} };
}

type Answer = { id: number; page: RenderedPage } | { id: number; error: string };

class RenderThread implements Renderer {
  readonly threaded = true;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (page: RenderedPage) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(spec: RenderSpec, workerFile: string) {
    // node:worker_threads loads here (~2 ms), not with the module: an export of one page never needs it.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    this.worker = withYoungGeneration(() => new Worker(workerFile, { workerData: spec, name: 'crm export render' }));
    this.worker.on('message', (answer: Answer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if ('error' in answer) waiter?.reject(new Error(`A page could not be read: ${answer.error}`));
      else waiter?.resolve(answer.page);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`The export's render thread stopped (exit code ${code}).`)));
  }

  render(body: Buffer): Promise<RenderedPage> {
    if (this.failure) return Promise.reject(this.failure);
    // The whole ArrayBuffer moves: the client's pageBodies gives each body one of its own.
    const own =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, body: own }, [own as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.fail(new Error('The export is over.'));
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.waiting.values()) reject(this.failure);
    this.waiting.clear();
  }
}

/**
 * Starts the thread with a young generation of 4 MB a semi-space instead of V8's 1 MB. heap-limits.ts
 * keeps V8 from doubling the young generation (a flat memory line), so a fresh thread's stayed
 * near 1 MB, and a page's records (a few MB, all alive until the page is rendered) were copied by
 * scavenge after scavenge and promoted: the thread spent as much on collections as on rendering.
 * The larger young generation takes a quarter to a third off the export's CPU at the same peak RSS. V8 reads
 * the size when the thread's heap is made, so the flag is set until the thread is online (the
 * process's own heap is made already; V8 stamps a code cache with its flags, so none stays changed).
 */
function withYoungGeneration(start: () => Worker): Worker {
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  setFlagsFromString('--min-semi-space-size=4');
  const worker = start();
  const restore = () => setFlagsFromString('--min-semi-space-size=0');
  worker.once('online', restore).once('error', restore).once('exit', restore); // whichever comes first
  return worker;
}
