import { createWriteStream, mkdtempSync, openSync, readSync, closeSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openPrivate } from '../../private-files.js';
import { SyncUsageError } from '../errors.js';

/**
 * `crm sync import leads -`: stdin is copied to a temporary file first (streamed, flat memory),
 * because the import reads its source twice at most (a JSON Lines file's columns, the CSV header
 * sniff) and records its size for the journal. JSON Lines is recognised by a first character `{`.
 */
export async function spoolStdin(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-stdin-')); // 0700
  const raw = join(dir, 'stdin');
  await pipeline(process.stdin, createWriteStream('', { fd: openPrivate(raw, 'w') }));
  const fd = openSync(raw, 'r');
  const head = Buffer.alloc(4096);
  const length = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = head
    .subarray(0, length)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text === '') throw new SyncUsageError('stdin was empty: pipe a CSV (with a header line) or JSON Lines into it.');
  const path = join(dir, text.startsWith('{') ? 'stdin.jsonl' : 'stdin.csv');
  renameSync(raw, path);
  return path;
}
