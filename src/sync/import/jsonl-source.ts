import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { CATALOGUES, type SyncResource } from '../columns.js';
import { SyncUsageError } from '../errors.js';
import { rowMaker } from '../flatten.js';
import type { CsvSource, SourceRow } from '../csv/source.js';

/**
 * A JSON Lines file (one record per line, as `crm sync export --format jsonl` writes) read as the
 * rows of a CSV: each object is flattened into the same columns an export has (address.city,
 * contact.email, tags, custom_fields), so mapping, checks, batches and results files are the
 * CSV import's own. The columns are those any line fills (a first pass over the file), so a field
 * no line mentions is left alone, as a column a CSV does not have. A line that is not a JSON
 * object fails on its own, with its line number; the others import.
 */
export async function openJsonl(path: string, resource: SyncResource): Promise<CsvSource> {
  const { size } = statSync(path);
  const all = CATALOGUES[resource].columns;
  const flatten = rowMaker(resource, all);
  const used = new Set<number>();
  for await (const { value } of lines(path)) {
    if (!value) continue;
    flatten(value).forEach((cell, i) => cell !== '' && used.add(i));
  }
  if (used.size === 0) throw new SyncUsageError(`${path} has no JSON object with a ${resource} field in it.`);
  const picked = [...used].sort((a, b) => a - b);
  const header = picked.map((i) => all[i]!);
  let bytesRead = 0;
  return {
    header,
    delimiter: ',',
    encoding: 'utf8',
    size,
    bytesRead: () => bytesRead,
    rows: {
      async *[Symbol.asyncIterator]() {
        let run: SourceRow[] = [];
        for await (const { line, value, error, bytes } of lines(path)) {
          bytesRead += bytes;
          if (error) run.push({ line, values: header.map(() => ''), error: { code: 'invalid_json', message: `line ${line}: ${error}` } });
          else if (value) {
            const cells = flatten(value);
            run.push({ line, values: picked.map((i) => cells[i]!) });
          }
          if (run.length >= 500) {
            yield run;
            run = [];
          }
        }
        if (run.length) yield run;
      },
    },
  };
}

type Line = { line: number; value?: Record<string, unknown>; error?: string; bytes: number };

async function* lines(path: string): AsyncGenerator<Line> {
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    line++;
    const bytes = Buffer.byteLength(text) + 1;
    if (text.trim() === '') {
      yield { line, bytes };
      continue;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) yield { line, error: 'not a JSON object', bytes };
      else yield { line, value: parsed as Record<string, unknown>, bytes };
    } catch (error) {
      yield { line, error: `not JSON (${(error as Error).message})`, bytes };
    }
  }
}

export const isJsonl = (path: string): boolean => /\.(jsonl|ndjson)$/i.test(path);
