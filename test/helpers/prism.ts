import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

/**
 * Stoplight Prism's validation proxy (`prism proxy`) in front of a server: every request is checked
 * against the OpenAPI document, forwarded, and the answer checked too; what does not match is listed
 * in the `sl-violations` response header, with `location` `request.…` or `response.…`.
 *
 * Run without `--errors`: with it, Prism answers an invalid request itself (422) instead of
 * forwarding it, and a request the document calls invalid must still reach the server, so that the
 * test sees the server refuse it too. Violations are read from the header instead.
 */
export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface RunningPrism {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

const PRISM_CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startPrismProxy(documentPath: string, upstream: string): Promise<RunningPrism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM_CLI, 'proxy', documentPath, upstream, '--port', String(port), '--host', '127.0.0.1', '--cors', 'false', '-v', 'info'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Prism prints its routes, then "Prism is listening on …" once it accepts requests.
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (/Prism is listening/.test(output)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(() => reject(new Error(`prism exited before listening:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function violationsOf(headers: Headers): Violation[] {
  const header = headers.get('sl-violations');
  if (!header) return [];
  if (header.startsWith('Too many violations!')) return [{ location: ['response'], severity: 'Error', code: 'too-many', message: header.slice(0, 500) }];
  return JSON.parse(header) as Violation[];
}
