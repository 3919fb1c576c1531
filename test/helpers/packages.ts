import { execFile } from 'node:child_process';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';

/** The repository's root. */
export const ROOT = join(import.meta.dirname, '..', '..');

/** Our Node first on PATH, so that an installed `crm`'s `#!/usr/bin/env node` finds Node 24 too. */
export const PATH_WITH_NODE = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;

export interface Ran {
  stdout: string;
  stderr: string;
}

/**
 * Runs a program to completion and resolves with its output; a non-zero exit rejects with the
 * command line, the folder and both streams, so that a failed install says why.
 */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, PATH: PATH_WITH_NODE, NO_COLOR: '1', ...options.env },
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 32 << 20,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd}) failed: ${error.message}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

export interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/**
 * `npm pack` of a folder into dest, as `npm publish` would upload it. `--ignore-scripts` for the
 * CLI: its `prepare` is the whole build, which `npm test` has just run.
 */
export async function npmPack(folder: string, dest: string, extra: string[] = []): Promise<PackResult & { tarball: string }> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest, ...extra], { cwd: folder });
  // npm prints lifecycle scripts' output before the JSON: the JSON array is the last thing out.
  const pack = (JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as PackResult[])[0]!;
  return { ...pack, tarball: join(dest, pack.filename) };
}

/**
 * A README's code block, found by the file name its first or second line names (`// hello.js`,
 * `# hello.py`, `<?php` then `// hello.php`): the tests run what the README shows, not a copy.
 */
export function readmeBlock(readme: string, fileName: string): string {
  for (const match of readme.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    const lines = match[1]!.split('\n').slice(0, 2);
    if (lines.some((line) => new RegExp(`^(?://|#) ${fileName.replace('.', '\\.')}\\b`).test(line))) return match[1]!;
  }
  throw new Error(`The README has no code block that starts with a comment naming ${fileName}.`);
}

/**
 * An HTTP proxy in front of a real sandbox that remembers each request's method, path and headers:
 * the echo that shows what an SDK sent (its User-Agent) while the sandbox answers for real.
 */
export async function recordingProxy(target: string) {
  const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true }); // its own sockets, closed with the proxy: none left for the sandbox's stop to wait on
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, path: req.url!, headers: req.headers });
    const forward = httpRequest(
      { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => res.writeHead(502).end(String(error)));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** The User-Agents of the requests whose path starts with prefix. */
    userAgents: (prefix = '/v1/') => seen.filter((r) => r.path.startsWith(prefix)).map((r) => r.headers['user-agent']),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
