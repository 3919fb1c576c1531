import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LeadBulkRecord } from '../../src/schemas/bulk.js';
import { chunksOf, toBatch } from '../../src/sync/import/chunks.js';
import { mapHeader } from '../../src/sync/import/mapping.js';
import { openCsv, sniffDelimiter, type SourceRow } from '../../src/sync/csv/source.js';
import { tempDir } from '../helpers/sandbox.js';
import { FIXTURES } from '../helpers/sync.js';

const dir = tempDir('crm-sync-unit-');
afterAll(() => dir.remove());

async function readAll(path: string, options: Parameters<typeof openCsv>[1] = {}) {
  const source = await openCsv(path, options);
  const rows: SourceRow[] = [];
  for await (const run of source.rows) rows.push(...run);
  return { source, rows };
}

describe('reading CSV files', () => {
  it('ends the rows before a field longer than maxFieldSize, and says why, naming the column; a header too long is refused', async () => {
    const path = join(dir.path, 'long-field.csv');
    writeFileSync(path, `id,notes\n1,short\n2,"${'x'.repeat(200)}"\n3,after\n`);
    const read = await readAll(path, { maxFieldSize: 100 });
    expect(read.rows.map((r) => r.values[0])).toEqual(['1']);
    expect(read.source.failure!()).toEqual({
      resumable: true,
      message: expect.stringMatching(/^Field 2 \("notes"\) of the row on line 3 is longer than 100 characters/),
    });
    expect((await readAll(path, { maxFieldSize: 202 })).source.failure!()).toBeUndefined(); // 200 and its quotes
    // Malformed quoting ends the rows the same way, but no cap lets the file through.
    writeFileSync(path, 'id,notes\n1,short\n2,"never closed\n3,after\n');
    const malformed = await readAll(path);
    expect(malformed.rows.map((r) => r.values[0])).toEqual(['1']);
    expect(malformed.source.failure!()).toEqual({ resumable: false, message: expect.stringMatching(/row on line 3 is never closed/) });
    writeFileSync(path, `id,${'n'.repeat(101)}\n1,2\n`);
    await expect(readAll(path, { maxFieldSize: 100 })).rejects.toThrow(/^Cannot read the CSV: Field 2 of the row on line 1 is longer than 100 characters/);
  });

  it('sniffs the delimiter from the header line, outside quotes', () => {
    expect(sniffDelimiter('a,b,c\n1;2;3')).toBe(',');
    expect(sniffDelimiter('a;b;"c,d,e"\n')).toBe(';');
    expect(sniffDelimiter('a\tb\tc')).toBe('\t');
    expect(sniffDelimiter('a|b')).toBe('|');
    expect(sniffDelimiter('single')).toBe(',');
  });

  it('reads a cell crm escaped against formulas back to its text, header included, and keeps it with raw', async () => {
    const path = join(dir.path, 'escaped.csv');
    writeFileSync(path, `'=col,b\n'=1+1,"''=x"\n'+33 1,'plain\n`);
    const read = await readAll(path);
    expect(read.source.header).toEqual(['=col', 'b']);
    expect(read.rows.map((r) => r.values)).toEqual([
      ['=1+1', "'=x"],
      ['+33 1', "'plain"],
    ]);
    const raw = await readAll(path, { raw: true });
    expect(raw.source.header).toEqual(["'=col", 'b']);
    expect(raw.rows.map((r) => r.values)).toEqual([
      ["'=1+1", "''=x"],
      ["'+33 1", "'plain"],
    ]);
  });

  it('gives each row the line it starts on, across quoted line breaks and blank lines', async () => {
    const { rows } = await readAll(join(FIXTURES, 'leads-multiline.csv'));
    expect(rows.map((r) => r.line)).toEqual([2, 5, 6]);
    expect(rows[0]!.values[4]).toBe('First line\nsecond line, with a comma\nand a "quoted" word');
    const path = join(dir.path, 'blank.csv');
    writeFileSync(path, 'a,b\n\n1,2\n\n3,4\n');
    expect((await readAll(path)).rows.map((r) => [r.line, ...r.values])).toEqual([
      [3, '1', '2'],
      [5, '3', '4'],
    ]);
    writeFileSync(path, 'a,b\r\n1,"x\r\ny"\r\n\r\n3,4\r\n'); // Windows line ends
    expect((await readAll(path)).rows.map((r) => [r.line, ...r.values])).toEqual([
      [2, '1', 'x\r\ny'],
      [5, '3', '4'],
    ]);
  });

  it('detects ; and a UTF-8 BOM, and decodes Latin-1 when told', async () => {
    const semi = await readAll(join(FIXTURES, 'leads-semicolon.csv'));
    expect(semi.source.delimiter).toBe(';');
    expect(semi.rows[0]!.values).toContain('Paris; bureau 4');
    const bom = await readAll(join(FIXTURES, 'leads-bom.csv'));
    expect(bom.source.header[0]).toBe('external_id'); // no BOM glued to the first column name
    expect(bom.rows[1]!.values[1]).toBe('Łukasz');
    const latin = await readAll(join(FIXTURES, 'leads-latin1.csv'), { encoding: 'latin1' });
    expect(latin.rows[0]!.values.slice(1, 3)).toEqual(['José', 'Müller']);
    await expect(readAll(join(FIXTURES, 'leads-latin1.csv'))).rejects.toThrow(/not valid UTF-8.*--encoding latin1/);
  });

  it('reads UTF-16LE with a BOM without being told', async () => {
    const path = join(dir.path, 'utf16.csv');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first_name,email\nÅsa,asa@example.se\n', 'utf16le')]));
    const { source, rows } = await readAll(path);
    expect(source.encoding).toBe('utf16le');
    expect(rows[0]!.values).toEqual(['Åsa', 'asa@example.se']);
  });
});

describe('batches', () => {
  const header = ['external_id', 'first_name', 'email'];
  const spec = {
    resource: 'leads',
    mode: 'upsert' as const,
    matchOn: 'external_id' as const,
    map: mapHeader('leads', header, new Map(), 'upsert').targets,
    schema: LeadBulkRecord,
  };
  const rows = (n: number): SourceRow[] =>
    Array.from({ length: n }, (_, i) => ({ line: i + 2, values: [`e${i}`, `N${i}`, i === 1 ? 'bad' : `n${i}@example.com`] }));
  async function chunks(n: number, size: number) {
    const out = [];
    for await (const c of chunksOf(
      (async function* () {
        yield rows(n).slice(0, 2);
        yield rows(n).slice(2);
      })(),
      size,
    ))
      out.push(c);
    return out;
  }

  it('cuts the file by rows, so every run cuts the same chunks', async () => {
    const cut = await chunks(7, 3);
    expect(cut.map((c) => [c.index, c.firstLine, c.lastLine, c.rows.length])).toEqual([
      [0, 2, 4, 3],
      [1, 5, 7, 3],
      [2, 8, 8, 1],
    ]);
  });

  it('keeps invalid rows out of the body, and keys a batch by its content, mode and resource', async () => {
    const [chunk] = await chunks(3, 3);
    const batch = toBatch(chunk!, spec);
    expect(batch.sent.map((r) => r.line)).toEqual([2, 4]);
    expect(batch.invalid).toMatchObject([{ row: { line: 3 }, code: 'validation_failed', message: 'email: Invalid email address' }]);
    expect(JSON.parse(batch.request!.body.toString())).toEqual({
      mode: 'upsert',
      match_on: 'external_id',
      records: [
        { external_id: 'e0', first_name: 'N0', email: 'n0@example.com' },
        { external_id: 'e2', first_name: 'N2', email: 'n2@example.com' },
      ],
    });
    expect(toBatch(chunk!, spec).request!.key).toBe(batch.request!.key);
    expect(batch.request!.key).toMatch(/^crm-sync-[0-9a-f]{64}$/);
    expect(toBatch(chunk!, { ...spec, mode: 'create' }).request!.key).not.toBe(batch.request!.key);
    expect(toBatch(chunk!, { ...spec, resource: 'clients' }).request!.key).not.toBe(batch.request!.key);
  });

  it('sends nothing for a chunk without a valid row', async () => {
    const [chunk] = await chunks(3, 3);
    const allBad = { ...chunk!, rows: [chunk!.rows[1]!] };
    expect(toBatch(allBad, spec).request).toBeUndefined();
  });
});
