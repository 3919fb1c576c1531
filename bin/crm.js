#!/usr/bin/env node
// The `crm` command: a thin shim over the compiled CLI (npm ci builds it through `prepare`).
// It first refuses, in one line, a Node older than package.json's engines (API.md §10): the
// dependencies need Node 22, and better-sqlite3 13 crashes on Node 20 instead of saying so.
// This file must stay plain enough to run on any old Node. It is CommonJS (bin/package.json): Node
// starts an ES module entry through its ES module loader, ~2 ms more of every command (issue #27).
const nodeModule = require('node:module');
const { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const engines = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines.node; // ">=22.19"
const need = engines.replace(/^>=\s*/, '').split('.').map(Number);
const have = process.versions.node.split('.').map(Number);
if (olderThan(have, need)) {
  console.error(`crm needs Node.js ${need.join('.')} or newer (Node 24 LTS recommended); this is ${process.version}. Install a current Node and run it again.`);
  process.exit(2);
}

/** Version parts compared in order: [20, 20, 2] is older than [22, 12]. */
function olderThan(have, need) {
  for (let i = 0; i < need.length; i++) {
    if ((have[i] || 0) !== need[i]) return (have[i] || 0) < need[i];
  }
  return false;
}

// V8's compiled code for our modules and the dependencies', kept on disk (Node's own cache in the
// temporary folder, NODE_COMPILE_CACHE to move it, NODE_DISABLE_COMPILE_CACHE=1 to turn it off):
// compiling ~600 modules was about a third of a sandbox's start (docs/benchmarks.md).
nodeModule.enableCompileCache?.();

// The CLI bundled into one file (scripts/build-cli-bundle.mjs, part of `npm run build`): ~650
// modules in one read instead of a file-system walk each. In an installed package (no src/ beside
// dist/) it is always the one built with dist/. In a checkout, only when it is newer than tsc's last
// emit (dist/.tsbuildinfo), so a `tsc` without the bundle step never runs stale code. (Not file
// times of dist/cli/main.js: npm sets those when it unpacks, in no particular order.)
function bundled() {
  const at = (path) => join(__dirname, path);
  try {
    const bundle = at('../dist/cli.bundle.cjs');
    const built = statSync(bundle).mtimeMs;
    if (!existsSync(at('../src'))) return bundle;
    return built >= statSync(at('../dist/.tsbuildinfo')).mtimeMs ? bundle : null;
  } catch {
    return null;
  }
}
const entry = process.env.CRM_NO_BUNDLE ? null : bundled();

const load = entry ? new Promise((resolve) => resolve(loadBundle(entry))) : import('../dist/cli/main.js');
load.then(
  async ({ main }) => {
    process.exitCode = await main(process.argv);
  },
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
      console.error('crm is not built yet: run `npm run build` (npm ci does it for you).');
      process.exitCode = 1;
      return;
    }
    throw error;
  },
);

/**
 * Runs the bundle as require() would, but through vm.Script with V8's code cache of an earlier run
 * made *after* that run's work (Node's compile cache holds the code compiled before a module runs:
 * for one bundle that is its top level only, and every function a command calls was compiled again
 * on each start; ~30 ms of a sandbox's start, issue #27). One cache per command word (`sandbox`,
 * `sync`, …), written once when missing or rejected, as the process exits. V8 refuses a cache made
 * for another source length, V8 version or flags; the key adds the bundle's SHA-1 and Node's
 * version, so a cache is only ever used for the bytes it was made from. It lives in a folder only
 * this user can write (~/.cache/crm, else one in the temporary folder; CRM_CODE_CACHE_DIR to move
 * it, NODE_DISABLE_COMPILE_CACHE=1 to turn it off): code from a cache is run as ours.
 */
function loadBundle(file) {
  const vm = require('node:vm');
  // The build makes it all ASCII (scripts/build-cli-bundle.mjs): read as Latin-1 into a one-byte
  // string, ~20x faster than decoding UTF-8 (~6 ms); checked, since Latin-1 of anything else is wrong.
  const bytes = readFileSync(file);
  const source = bytes.toString(require('node:buffer').isAscii(bytes) ? 'latin1' : 'utf8');
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? null : codeCacheDir();
  let key = null;
  let cacheFile = null;
  let provisionalFile = null;
  let cachedData;
  let provisional = false;
  if (dir) {
    key = cacheKey(source);
    cacheFile = join(dir, `${key}-${commandWords()}.v8`);
    // A run that ended before its start was over (src/code-cache.ts) left this one instead.
    provisionalFile = cacheFile.replace(/\.v8$/, '.provisional.v8');
    cachedData = readIfThere(cacheFile);
    if (cachedData === undefined) provisional = (cachedData = readIfThere(provisionalFile)) !== undefined;
  }
  const script = new vm.Script(nodeModule.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cacheFile) {
    const usable = () => cachedData && !script.cachedDataRejected;
    const write = (target, always) => {
      try {
        const data = script.createCachedData();
        if (!always && usable() && data.length <= cachedData.length) return;
        const partial = `${target}.${process.pid}.tmp`;
        writeFileSync(partial, data, { mode: 0o600 });
        renameSync(partial, target);
        // Caches of other bundles (an earlier version, another Node) are never read again: a new
        // cache is rare (first run, a rebuild), so that is when the folder is swept.
        for (const name of readdirSync(dir)) {
          if (name.endsWith('.v8') && !name.startsWith(`${key}-`)) rmSync(join(dir, name), { force: true });
        }
      } catch {
        // a cache is an optimisation: a full disk or a read-only home never fails a command
      }
    };
    // A command whose start is what counts (`crm sandbox start`: src/code-cache.ts) says so as it
    // begins, and when that start is over; its cache is made then, holding what a start runs and no
    // more: V8 reads a cache whole on every start, and one grown over a long sandbox run (every
    // route it served) was ~0.4 MB larger and ~6 ms slower to start from (docs/benchmarks.md, issue
    // #27). If such a run ends first, what it compiled is kept as provisional, for the starts
    // until one gets that far and replaces it.
    let awaitsCheckpoint = false;
    let startOver = false;
    process.once('crm:code-cache-awaits-checkpoint', () => (awaitsCheckpoint = true));
    process.once('crm:code-cache-checkpoint', () => {
      startOver = true;
      if (usable() && !provisional) return;
      write(cacheFile, true);
      try {
        rmSync(provisionalFile, { force: true });
      } catch {
        // left behind, it is never read again: the final cache is found first
      }
    });
    process.once('exit', () => {
      if (startOver) return;
      if (awaitsCheckpoint) {
        if (!usable()) write(provisionalFile, true);
        return;
      }
      // Other commands: made again at exit when missing or refused, and after a long run (a sync:
      // its exit is not waited for) when it has grown: a first run that did little must not be all it keeps.
      if (!usable() || process.uptime() > 2) write(cacheFile, false);
    });
  }
  const bundle = new nodeModule.Module(file);
  bundle.filename = file;
  bundle.paths = nodeModule.Module._nodeModulePaths(dirname(file));
  script.runInThisContext()(bundle.exports, nodeModule.createRequire(file), bundle, file, dirname(file));
  bundle.loaded = true;
  return bundle.exports;
}

/** A file's bytes, or undefined when it cannot be read (missing, or not ours to read). */
function readIfThere(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The bundle's bytes and what V8 checks a cache against besides them. The bytes by the SHA-1 the
 * build stamped as the bundle's last line (scripts/build-cli-bundle.mjs): hashing 2 MB and loading
 * node:crypto was ~10 ms of every start. A bundle without the stamp is hashed here.
 */
function cacheKey(source) {
  const stamp = /\/\/ crm-bundle-sha1 ([0-9a-f]{40})\n$/.exec(source.slice(-64));
  const bytes = stamp ? stamp[1] : require('node:crypto').createHash('sha1').update(source).digest('hex');
  return `${bytes.slice(0, 20)}${fnv1a(`${source.length} ${process.version} ${process.execArgv.join(' ')}`)}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short name part for what V8 checks itself (version, flags). */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** `sandbox-start`, `sync-import`, `help`…: the words naming the command, as the cache's name. */
function commandWords() {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') return 'help';
  const words = [];
  for (const arg of args) {
    if (!/^[a-z][a-z-]{0,30}$/.test(arg) || words.length === 2) break;
    words.push(arg);
  }
  return words.join('-') || 'other';
}

/** A folder for the code caches that only this user can write to, or null. */
function codeCacheDir() {
  const { homedir, tmpdir } = require('node:os');
  const uid = process.getuid?.();
  const candidates = process.env.CRM_CODE_CACHE_DIR
    ? [process.env.CRM_CODE_CACHE_DIR]
    : [join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crm'), join(tmpdir(), `crm-code-cache-${uid ?? 'user'}`)];
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stat = lstatSync(dir);
      if (stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0) return dir;
    } catch {
      // not writable here: try the next place
    }
  }
  return null;
}

