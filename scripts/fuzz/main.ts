import { startSandboxProcess } from '../../test/helpers/sandbox.js';
import { fuzzNesting } from './nesting.js';
import { fuzzPaths, PATH_FUZZ_LIMITS } from './path-run.js';
import { fuzz } from './run.js';

/**
 * `npm run fuzz [-- --seed S --runs N --path-runs N --nesting-ops N --only REGEX --modes bodies,paths,nesting]`:
 * each mode starts a sandbox on a fresh SQLite file and fuzzes the operations of its OpenAPI
 * document — bodies and parameters (`--runs` cases per operation), other spellings of paths
 * (`--path-runs` cases per mutation kind, key and area), deeply nested bodies (`--nesting-ops`
 * write operations, all by default) — prints the findings, and exits 1 if there are any.
 */
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const seed = Number(opt('seed') ?? Math.floor(Math.random() * 2 ** 31));
const runs = Number(opt('runs') ?? 200);
const pathRuns = Number(opt('path-runs') ?? 20);
const nestingOps = opt('nesting-ops');
const only = opt('only') === undefined ? undefined : new RegExp(opt('only')!);
const modes = new Set((opt('modes') ?? 'bodies,paths,nesting').split(','));
const log = (line: string) => console.log(line);
let findings = 0;

const NO_LIMITS = ['--rate-limit', '0', '--quota', '0'];

async function withSandbox(limits: string[], run: (sandbox: Awaited<ReturnType<typeof startSandboxProcess>>) => Promise<void>): Promise<void> {
  const sandbox = await startSandboxProcess(limits);
  try {
    await run(sandbox);
  } finally {
    await sandbox.stop();
  }
}

console.log(`fuzz: seed ${seed}, modes ${[...modes].join(', ')}`);
if (modes.has('bodies')) {
  await withSandbox(NO_LIMITS, async (sandbox) => {
    console.log(`fuzz bodies: ${runs} cases per operation, ${sandbox.baseUrl}`);
    const result = await fuzz(sandbox, { seed, runs, ...(only ? { only } : {}), log });
    const total = Object.values(result.cases).reduce((a, b) => a + b, 0);
    console.log(`fuzz bodies: ${Object.keys(result.cases).length} operations, ${total} cases, ${result.findings.length} findings`);
    console.log(`fuzz bodies: schema-valid requests refused for business reasons: ${JSON.stringify(result.refusedValid)}`);
    for (const f of result.findings) console.log(JSON.stringify(f));
    findings += result.findings.length;
  });
}
if (modes.has('paths')) {
  await withSandbox(PATH_FUZZ_LIMITS, async (sandbox) => {
    console.log(`fuzz paths: ${pathRuns} cases per mutation kind, key and area, ${sandbox.baseUrl}`);
    const result = await fuzzPaths(sandbox, { seed, runs: pathRuns, ...(only ? { only } : {}), log });
    const total = Object.values(result.cases).reduce((a, b) => a + b, 0);
    console.log(`fuzz paths: ${total} cases ${JSON.stringify(result.cases)}, keys ${JSON.stringify(result.byPower)}`);
    console.log(
      `fuzz paths: answered as the canonical path ${result.outcomes.same}, refused with a 4xx ${result.outcomes.refused}, findings ${result.outcomes.finding}`,
    );
    for (const f of result.findings) console.log(JSON.stringify(f));
    findings += result.findings.length;
  });
}
if (modes.has('nesting')) {
  await withSandbox(NO_LIMITS, async (sandbox) => {
    const result = await fuzzNesting(sandbox, { seed, ...(nestingOps ? { operations: Number(nestingOps) } : {}), ...(only ? { only } : {}), log });
    console.log(`fuzz nesting: ${result.operations.length} write operations, ${result.cases} cases, ${result.findings.length} findings`);
    for (const f of result.findings) console.log(JSON.stringify(f));
    findings += result.findings.length;
  });
}
console.log(`fuzz: ${findings} findings in all`);
process.exitCode = findings ? 1 : 0;
