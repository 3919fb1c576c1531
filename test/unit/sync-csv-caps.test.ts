import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvParser, CsvTooLongError } from '../../src/sync/csv/parser.js';
import { DEFAULT_MAX_FIELD_SIZE, formatSize, parseSize } from '../../src/sync/csv/limits.js';
import type { SourceRow } from '../../src/sync/csv/source.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/** Feeds `text` to a parser in pieces of `size` characters, as the import's 64 KiB reads do. */
function parseInPieces(parser: CsvParser, text: string, size: number): SourceRow[] {
  const rows: SourceRow[] = [];
  for (let at = 0; at < text.length; at += size) rows.push(...parser.push(text.slice(at, at + size)));
  return [...rows, ...parser.end()];
}

/**
 * A file whose row on line 3 opens a quote that is never closed, `mb` MB of text with commas and
 * line breaks after it, fed in 64 KiB pieces made as they are asked for (never the whole file at
 * once). How many pieces it took to fail, and what it failed with.
 */
function feedUnclosed(mb: number, parser = new CsvParser(',')): { pieces: number; error: unknown; rows: SourceRow[] } {
  const rows = [...parser.push('id,name,notes\n1,Ann,fine\n2,Bob,"this note never ends ')];
  const piece = 'lorem ipsum, dolor\nsit amet '.repeat(64 * KIB).slice(0, 64 * KIB);
  let pieces = 0;
  try {
    for (; pieces < (mb * MIB) / piece.length; ) {
      pieces++;
      rows.push(...parser.push(piece));
    }
    rows.push(...parser.end());
  } catch (error) {
    return { pieces, error, rows };
  }
  return { pieces, error: undefined, rows };
}

describe('CSV parser: field and row caps', () => {
  for (const mb of [3, 30]) {
    it(`stops a quote never closed in a ${mb} MB file at the cap, naming the field, its line, the cap and the flag`, () => {
      const { pieces, error, rows } = feedUnclosed(mb);
      expect(error).toBeInstanceOf(CsvTooLongError);
      expect((error as Error).message).toMatch(
        /^Field 3 of the row on line 3 is longer than 1,048,576 characters, the most a field may have\. If it is meant to be that long, raise the cap with --max-field-size \(now 1M; e\.g\. --max-field-size 4M\)\. If not, the quote that opens it is probably never closed/,
      );
      expect((error as CsvTooLongError).describe(['id', 'name', 'notes'])).toMatch(/^Field 3 \("notes"\) of the row on line 3 /);
      // Refused by the piece that takes the field past 1 MiB (its start and 16 pieces of 64 KiB), not at the end of the file.
      expect(pieces).toBe(16);
      expect(rows.map((r) => r.line)).toEqual([1, 2]);
    });
  }

  it('reads a quoted field of exactly the cap (as written: quotes included), and refuses one character more', () => {
    const cap = 256 * KIB;
    const written = 'é, ""x""\r\n'; // 10 characters as written, 8 as read
    for (const length of [cap, cap + 1]) {
      const body = written.repeat(Math.floor((length - 2) / 10)) + 'y'.repeat((length - 2) % 10);
      const text = `a,b\r\n1,"${body}"\r\n2,z\r\n`;
      for (const piece of [64 * KIB, 1000, 7]) {
        const parse = () => parseInPieces(new CsvParser(',', cap), text, piece);
        if (length > cap) expect(parse, `pieces of ${piece}`).toThrow(/^Field 2 of the row on line 2 is longer than 262,144 characters/);
        else {
          const rows = parse();
          expect(rows[1]!.values[1]).toBe(body.replaceAll('""', '"'));
          expect(rows.map((r) => r.line)).toEqual([1, 2, 3 + Math.floor((length - 2) / 10)]);
        }
      }
    }
  });

  it('refuses an unquoted field over the cap, and a row over 4 times the cap with no field over it', () => {
    expect(() => parseInPieces(new CsvParser(',', 100), `a,b\n1,${'x'.repeat(101)}\n`, 64 * KIB)).toThrow(
      /^Field 2 of the row on line 2 is longer than 100 characters/,
    );
    expect(parseInPieces(new CsvParser(',', 100), `a,b\n1,${'x'.repeat(100)}\n`, 64 * KIB)[1]!.values[1]).toHaveLength(100);
    const row = Array.from({ length: 100 }, () => 'x'.repeat(9)).join(','); // 999 characters, no field over 100
    expect(() => parseInPieces(new CsvParser(',', 100), `a\n${row}\n`, 64 * KIB)).toThrow(
      /^The row on line 2 is longer than 400 characters, the most a row may have \(4 times --max-field-size\)/,
    );
    // Without a line break anywhere, fed in pieces: refused at the row's cap, with the pieces read so far.
    const parser = new CsvParser(',', 100);
    expect(() => {
      for (let i = 0; i < 1000; i++) parser.push('xxxxxxxxx,');
    }).toThrow(CsvTooLongError);
  });

  it('hands over the rows before the fault with the error, so that they can still be used', () => {
    try {
      new CsvParser(',', 10).push('a,b\n1,2\n3,"this is too long');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvTooLongError);
      expect((error as CsvTooLongError).rowsBefore).toEqual([
        { line: 1, values: ['a', 'b'] },
        { line: 2, values: ['1', '2'] },
      ]);
    }
  });

  it('reads multi-byte UTF-8 cut between byte chunks, CRLF, doubled quotes and long quoted fields as csv-parse does', () => {
    const long = 'Zoë 山田 🎉 say ""hi"", \r\n'.repeat(20_000); // ~500 KB, many chunks
    const text = `id,name,notes\r\n1,"Zoë ""Z"" Ünal","${long}"\r\n2,山田,"a\r\nb"\r\n3,🎉,plain\r\n`;
    const bytes = Buffer.from(text);
    const expected = parse(text, { relax_column_count: true }) as string[][];
    for (const size of [64 * KIB, 4099, 7]) {
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const parser = new CsvParser(',');
      const rows: SourceRow[] = [];
      for (let at = 0; at < bytes.length; at += size) rows.push(...parser.push(decoder.decode(bytes.subarray(at, at + size), { stream: true })));
      rows.push(...parser.push(decoder.decode()), ...parser.end());
      expect(
        rows.map((r) => r.values),
        `byte chunks of ${size}`,
      ).toEqual(expected);
      expect(rows.map((r) => r.line)).toEqual([1, 2, 2 + 20_000 + 1, 2 + 20_000 + 3]);
    }
  });
});

describe('--max-field-size values', () => {
  it('takes a number of characters, or K and M (1024 and 1024²), up to 100M', () => {
    expect(parseSize('4M')).toBe(4 * MIB);
    expect(parseSize('4MB')).toBe(4 * MIB);
    expect(parseSize('2mib')).toBe(2 * MIB);
    expect(parseSize('512K')).toBe(512 * KIB);
    expect(parseSize('1500')).toBe(1500);
    expect(parseSize('100M')).toBe(100 * MIB);
    for (const bad of ['', '0', '-1', '1.5M', '4G', '101M', 'M', '4 megabytes']) expect(parseSize(bad), bad).toBeUndefined();
    expect(formatSize(DEFAULT_MAX_FIELD_SIZE)).toBe('1M');
    expect(formatSize(512 * KIB)).toBe('512K');
    expect(formatSize(1500)).toBe('1500');
  });
});
