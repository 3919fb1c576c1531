import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const CRM_BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'crm.js');

export interface Sandbox {
  baseUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** A real sandbox process, as `crm sandbox start --port 0 --json --db :memory:` starts it. */
export async function startSandbox(args: string[] = []): Promise<Sandbox> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CRM_BIN, 'sandbox', 'start', '--port', '0', '--json', '--db', ':memory:', '--webhook-time-scale', '0.001', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}:\n${stderr}`)));
  });
  const ready = JSON.parse(line) as { base_url: string; api_key: string };
  return {
    baseUrl: ready.base_url,
    apiKey: ready.api_key,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

export const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
