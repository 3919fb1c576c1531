import { readFileSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateDir, writePrivateFile } from '../../../private-files.js';
import { generateWebhookSecret } from '../../../domain/webhook-signature.js';

/**
 * What `crm listen` keeps between runs, per base URL: its signing secret (so a receiver
 * configured once keeps verifying after a restart) and its position, the id of the last event it
 * handled (so a restart first forwards what it missed). `crm events resend|replay --forward-to`
 * sign with the same secret. The file holds a secret: it is written with mode 0600.
 */
export interface ListenState {
  secret: string;
  last_event_id: string | null;
  updated_at: string;
}

type StateFile = { version: 1; listeners: Record<string, ListenState> };

/** One key per server, whatever the trailing slash. */
const keyOf = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

function readFile(path: string): StateFile {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as StateFile;
    if (parsed && parsed.version === 1 && typeof parsed.listeners === 'object') return parsed;
    throw new Error('unknown format');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, listeners: {} };
    throw new Error(`Cannot read the listen state ${path}: ${(error as Error).message}. Fix or delete it (a new secret is made then).`);
  }
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
function writeFile(path: string, state: StateFile): void {
  makePrivateDir(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  writePrivateFile(temp, JSON.stringify(state, null, 2) + '\n');
  renameSync(temp, path);
}

/** The state for a server, made (with a new secret) on first use. */
export function loadListenState(path: string, baseUrl: string): ListenState {
  const file = readFile(path);
  const found = file.listeners[keyOf(baseUrl)];
  if (found) return found;
  const made: ListenState = { secret: generateWebhookSecret(), last_event_id: null, updated_at: new Date().toISOString() };
  file.listeners[keyOf(baseUrl)] = made;
  writeFile(path, file);
  return made;
}

/** Records the position; re-reads the file first so that listeners of other servers sharing it keep theirs. */
export function saveListenPosition(path: string, baseUrl: string, lastEventId: string): void {
  const file = readFile(path);
  const current = file.listeners[keyOf(baseUrl)];
  if (!current) throw new Error(`The listen state for ${baseUrl} disappeared from ${path}.`);
  file.listeners[keyOf(baseUrl)] = { ...current, last_event_id: lastEventId, updated_at: new Date().toISOString() };
  writeFile(path, file);
}
