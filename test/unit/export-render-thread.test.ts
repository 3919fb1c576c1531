import { describe, expect, it } from 'vitest';
import { trailingCursor } from '../../src/client/client.js';
import { pageRenderer, type RenderSpec } from '../../src/sync/export/render.js';
import { exportColumns, exportTargets } from '../../src/sync/flatten.js';
import { startRenderer } from '../../src/sync/export/render-thread.js';

/**
 * The export's render thread (sync/export/render-thread.ts), run from the compiled worker in dist/ (the
 * test command builds first): what it writes is what the main thread would, pages come back in
 * the order sent, and a page's bytes are handed over, not copied.
 */
const WORKER = new URL('../../dist/sync/export/render-worker.js', import.meta.url);

const lead = (i: number) => ({
  id: `lead_${i}`,
  first_name: i % 2 ? `Zoë "${i}"` : '=HYPERLINK("x")',
  last_name: '日本',
  email: `l${i}@example.com`,
  status: 'new',
  notes: 'two\nlines, a comma',
  tags: ['a', 'b|c'],
  custom_fields: { score: i, note: '' },
  created_at: '2026-11-21T12:00:00.000Z',
});
const page = (from: number, next_cursor: string | null) => ({ data: Array.from({ length: 50 }, (_, i) => lead(from + i)), next_cursor });
const spec = (format: 'csv' | 'jsonl'): RenderSpec => ({
  format,
  targets: exportTargets('leads', exportColumns('leads', page(0, null).data, undefined)),
  raw: false,
});
/** As CrmClient.pageBodies yields them: a Buffer over an ArrayBuffer of its own (undici's arrayBuffer()). */
const bytesOf = (value: unknown) => Buffer.from(new TextEncoder().encode(JSON.stringify(value)).buffer);

describe('the export render thread', () => {
  it('renders CSV and JSON Lines byte for byte as the main thread does, pages in the order sent', async () => {
    for (const format of ['csv', 'jsonl'] as const) {
      const renderer = startRenderer(spec(format), WORKER);
      try {
        expect(renderer.threaded).toBe(true);
        const pages = [page(0, 'c1'), page(50, 'c2'), page(100, null)];
        const rendered = await Promise.all(pages.map((p) => renderer.render(bytesOf(p))));
        const here = pageRenderer(spec(format));
        rendered.forEach((r, i) => {
          expect(Buffer.from(r.output).toString('utf8')).toBe(here(pages[i]!).output);
          expect(r).toMatchObject({ rows: 50, next_cursor: pages[i]!.next_cursor });
        });
      } finally {
        await renderer.close();
      }
    }
  });

  it("hands a page's bytes over instead of copying them, and reports a page that is not JSON", async () => {
    const renderer = startRenderer(spec('csv'), WORKER);
    try {
      const body = bytesOf(page(0, null));
      const done = renderer.render(body);
      expect(body.byteLength).toBe(0); // detached: the thread has them now
      expect((await done).rows).toBe(50);
      await expect(renderer.render(Buffer.from('{"data":[{"id":'))).rejects.toThrow(/A page could not be read: .*JSON/);
      expect((await renderer.render(bytesOf(page(0, null)))).rows).toBe(50); // and goes on
    } finally {
      await renderer.close();
    }
    await expect(renderer.render(bytesOf(page(0, null)))).rejects.toThrow('The export is over.');
  });

  it('reads a page that starts with a UTF-8 byte-order mark, as a JSON client does', async () => {
    const p = page(0, null);
    const withBom = Buffer.from(new TextEncoder().encode(`\uFEFF${JSON.stringify(p)}`).buffer);
    expect([withBom[0], withBom[1], withBom[2]]).toEqual([0xef, 0xbb, 0xbf]);
    for (const renderer of [startRenderer(spec('csv'), WORKER), startRenderer(spec('csv'), new URL('./no-such-worker.js', import.meta.url))]) {
      try {
        const rendered = await renderer.render(Buffer.from(withBom)); // a copy each: the thread takes its bytes
        expect(Buffer.from(rendered.output).toString('utf8')).toBe(pageRenderer(spec('csv'))(p).output);
      } finally {
        await renderer.close();
      }
    }
  });

  it('renders on the main thread, the same way, when the compiled worker is not there', async () => {
    const renderer = startRenderer(spec('csv'), new URL('./no-such-worker.js', import.meta.url));
    expect(renderer.threaded).toBe(false);
    const p = page(0, null);
    expect((await renderer.render(bytesOf(p))).output).toBe(pageRenderer(spec('csv'))(p).output);
  });
});

describe('trailingCursor', () => {
  it("reads the page's next_cursor when it is the object's last member", () => {
    expect(trailingCursor(bytesOf({ data: [{ a: 1 }], next_cursor: 'eyJh.Rl_-' }))).toBe('eyJh.Rl_-');
    expect(trailingCursor(bytesOf({ data: [], next_cursor: null }))).toBeNull();
    expect(trailingCursor(Buffer.from('{"data":[],"next_cursor":"a\\"b"}\n'))).toBe('a"b');
  });

  it('says nothing (the page is then parsed) when it is elsewhere, nested or not ASCII', () => {
    expect(trailingCursor(bytesOf({ next_cursor: 'x', data: [] }))).toBeUndefined();
    expect(trailingCursor(bytesOf({ data: [{ next_cursor: 'x' }] }))).toBeUndefined();
    expect(trailingCursor(bytesOf({ data: [], meta: { next_cursor: 'x' } }))).toBeUndefined();
    expect(trailingCursor(bytesOf({ data: [{ notes: '"next_cursor":"x"}' }] }))).toBeUndefined();
    expect(trailingCursor(bytesOf({ data: [], next_cursor: 'curs€r' }))).toBeUndefined();
  });
});
