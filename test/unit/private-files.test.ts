import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePrivateDir, openPrivate, preparePrivateDatabase, writePrivateFile } from '../../src/private-files.js';
import { tempDir } from '../helpers/sandbox.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const dir = tempDir();
let umaskBefore: number;
beforeAll(() => void (umaskBefore = process.umask(0o000))); // the worst umask: nothing taken away
afterAll(() => {
  process.umask(umaskBefore);
  dir.remove();
});

describe('private files', () => {
  it('makePrivateDir makes every level it creates 0700 and leaves a folder that was there as it was', () => {
    const existing = join(dir.path, 'mine');
    mkdirSync(existing, { mode: 0o755 });
    makePrivateDir(join(existing, 'a', 'b'));
    expect(mode(existing)).toBe(0o755);
    expect(mode(join(existing, 'a'))).toBe(0o700);
    expect(mode(join(existing, 'a', 'b'))).toBe(0o700);
    makePrivateDir(join(existing, 'a', 'b')); // already there: nothing to do
    expect(mode(join(existing, 'a', 'b'))).toBe(0o700);
  });

  it('files are 0600, new or rewritten', () => {
    const file = join(dir.path, 'secret.json');
    writePrivateFile(file, '{}');
    expect(mode(file)).toBe(0o600);
    const old = join(dir.path, 'old.csv');
    writeFileSync(old, 'a\n', { mode: 0o644 });
    writePrivateFile(old, 'b\n');
    expect(mode(old)).toBe(0o600);
    const appended = join(dir.path, 'append.log');
    writeFileSync(appended, '', { mode: 0o666 });
    openPrivate(appended, 'a');
    expect(mode(appended)).toBe(0o600);
    expect(() => writePrivateFile(file, 'again', 'wx')).toThrow(/EEXIST/);
  });

  it('preparePrivateDatabase: an empty 0600 file, and a database’s leftover -wal and -shm made 0600', () => {
    const db = join(dir.path, 'x.db');
    writeFileSync(`${db}-wal`, '', { mode: 0o644 });
    preparePrivateDatabase(db);
    expect(statSync(db).size).toBe(0);
    expect(mode(db)).toBe(0o600);
    expect(mode(`${db}-wal`)).toBe(0o600);
  });
});
