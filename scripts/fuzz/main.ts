import { startSandboxProcess } from '../../test/helpers/sandbox.js';
import { fuzz } from './run.js';

/**
 * `npm run fuzz [-- --seed S --runs N --only REGEX]`: starts a sandbox on a fresh SQLite file,
 * fuzzes every operation of its OpenAPI document, prints the findings, exits 1 if there are any.
 */
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const seed = Number(opt('seed') ?? Math.floor(Math.random() * 2 ** 31));
const runs = Number(opt('runs') ?? 200);
const only = opt('only');
const sandbox = await startSandboxProcess(['--rate-limit', '0', '--quota', '0']);
try {
  console.log(`fuzz: seed ${seed}, ${runs} cases per operation, ${sandbox.baseUrl}`);
  const result = await fuzz(sandbox, { seed, runs, ...(only ? { only: new RegExp(only) } : {}), log: (l) => console.log(l) });
  const total = Object.values(result.cases).reduce((a, b) => a + b, 0);
  console.log(`fuzz: ${Object.keys(result.cases).length} operations, ${total} cases, ${result.findings.length} findings`);
  console.log(`fuzz: schema-valid requests refused for business reasons: ${JSON.stringify(result.refusedValid)}`);
  for (const f of result.findings) console.log(JSON.stringify(f));
  process.exitCode = result.findings.length ? 1 : 0;
} finally {
  await sandbox.stop();
}
