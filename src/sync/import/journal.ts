import { closeSync, existsSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openPrivate } from '../../private-files.js';
import { SyncUsageError } from '../errors.js';

/**
 * The import's journal (journal.jsonl in the results folder): a header line saying what is being
 * imported and how, then one line per finished chunk with its line range, its Idempotency-Key and
 * the size the results files had once its results were written. --resume skips the chunks it
 * lists and cuts the results files back to those sizes, dropping results of chunks that were
 * written but never journaled (the process died in between); those chunks are sent again and
 * the server replays their stored responses.
 *
 * Lines are written with one write() each; a process that dies leaves at most a torn last line,
 * which is ignored. (No fsync: the journal survives the process being killed, not the machine.)
 */
export interface JournalHeader {
  file: string;
  size: number;
  mtime_ms: number;
  resource: string;
  mode: string;
  match_on: string;
  batch_size: number;
  map: string;
  delimiter: string;
  encoding: string;
  /** --raw: cells read as they are, not unescaped (formula-cells.ts). */
  raw: boolean;
  columns: string[];
}

export interface JournalEntry {
  chunk: number;
  first_line: number;
  last_line: number;
  key: string | null;
  summary: { created: number; updated: number; unchanged: number; failed: number };
  succeeded_bytes: number;
  failed_bytes: number;
}

export interface ResumePoint {
  done: Map<number, JournalEntry>;
  /** Sizes the results files must be cut back to; undefined when nothing was journaled yet. */
  sizes: { succeeded: number; failed: number } | undefined;
}

export class Journal {
  private constructor(private readonly fd: number) {}

  static path(dir: string): string {
    return join(dir, 'journal.jsonl');
  }

  /** Starts a new journal, replacing any earlier one in the folder. */
  static create(dir: string, header: JournalHeader): Journal {
    const fd = openPrivate(Journal.path(dir), 'w');
    writeSync(fd, `${JSON.stringify({ header })}\n`);
    return new Journal(fd);
  }

  /** Reads the journal of an earlier run for --resume; it must be for the same file and options. */
  static resume(dir: string, header: JournalHeader): { journal: Journal; point: ResumePoint } {
    const path = Journal.path(dir);
    if (!existsSync(path)) throw new SyncUsageError(`Nothing to resume: ${path} does not exist. Run without --resume to start.`);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const parsed = lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as { header?: JournalHeader } & Partial<JournalEntry>];
      } catch {
        return []; // a line torn by a kill
      }
    });
    const earlier = parsed[0]?.header;
    if (!earlier) throw new SyncUsageError(`${path} is not an import journal. Run without --resume to start over.`);
    const differences = (Object.keys(header) as (keyof JournalHeader)[]).filter((k) => JSON.stringify(earlier[k]) !== JSON.stringify(header[k]));
    if (differences.length) {
      throw new SyncUsageError(
        `The journal in ${dir} was written for another file or other options (${differences.join(', ')} differ), so its batches would not line up. ` +
          'Rerun with the same file and options, or without --resume to start over.',
      );
    }
    const entries = parsed.slice(1).filter((e): e is JournalEntry => typeof e.chunk === 'number');
    const last = entries[entries.length - 1];
    return {
      journal: new Journal(openPrivate(path, 'a')),
      point: {
        done: new Map(entries.map((e) => [e.chunk, e])),
        sizes: last ? { succeeded: last.succeeded_bytes, failed: last.failed_bytes } : undefined,
      },
    };
  }

  record(entry: JournalEntry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
