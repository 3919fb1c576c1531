#!/usr/bin/env node
// The scripted model provider of test/helpers/fake-model-provider.ts (the one implementation, run
// here by Node's type stripping) as a process, for the SDK suites in other languages: it prints
// one JSON line, {"url": "http://127.0.0.1:PORT", "control_url": "http://127.0.0.1:PORT2"}, then
// serves until stdin closes or SIGTERM. Start the sandbox with CRM_ASSISTANT_URL=<url>/v1 and
// CRM_ASSISTANT_MODEL; POST <control_url>/script with a JSON array of steps ({text, toolCalls} or
// {status}: the helper's own) sets what the next model calls answer.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { startFakeProvider } from '../test/helpers/fake-model-provider.ts';

const fake = await startFakeProvider();
const control = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  if (req.method !== 'POST' || req.url !== '/script') return res.writeHead(404).end();
  try {
    const steps = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!Array.isArray(steps)) throw new Error('the script is a JSON array of steps');
    fake.script(steps);
    res.writeHead(204).end();
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error.message));
  }
});
control.listen(0, '127.0.0.1');
await once(control, 'listening');
process.stdout.write(JSON.stringify({ url: fake.url, control_url: `http://127.0.0.1:${control.address().port}` }) + '\n');

const stop = async () => {
  control.close();
  await fake.close();
  process.exit(0);
};
process.stdin.on('end', stop).resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
