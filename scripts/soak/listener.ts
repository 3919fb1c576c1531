import { join } from 'node:path';
import { spawnCrm } from '../../test/helpers/cli-process.js';
import { startReceiver, type Receiver } from '../../test/helpers/receiver.js';
import { SOAK_KEY } from './chaos.js';

/**
 * `crm listen` forwarding to a local receiver through the kills, as a developer runs it: one
 * process for the whole soak (it reconnects by itself; the sandbox comes back on the same port).
 */
export async function startListener(baseUrl: string, dir: string): Promise<{ receiver: Receiver; stop(): Promise<number | null>; stderr(): string }> {
  const receiver = await startReceiver(() => 200);
  const listen = spawnCrm([
    'listen',
    '--base-url',
    baseUrl,
    '--api-key',
    SOAK_KEY,
    '--forward-to',
    receiver.url,
    '--state',
    join(dir, 'listen.json'),
    '--from',
    'now',
    '--json',
  ]);
  // Ready once its stream is open: every event made from then on must be forwarded.
  await listen.waitForLine((line) => line.includes('"ready":true'), 30_000);
  return {
    receiver,
    stderr: listen.stderr,
    async stop() {
      listen.child.kill('SIGINT');
      const code = await listen.exited;
      await receiver.close();
      return code;
    },
  };
}
