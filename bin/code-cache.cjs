// V8's code cache for the CLI's bundle, shared by bin/crm.js (the bundle in dist/) and the single
// binary (the bundle embedded in it: scripts/build-binary.mjs). CommonJS and Node's built-ins only:
// the binary's entry can require nothing else.
const nodeModule = require('node:module');
const { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/**
 * Runs the bundle as require() would, but through vm.Script with V8's code cache of an earlier run
 * made *after* that run's work (Node's compile cache holds the code compiled before a module runs:
 * for one bundle that is its top level only, and every function a command calls was compiled again
 * on each start; ~30 ms of a sandbox's start, docs/benchmarks.md). One cache per command word (`sandbox`,
 * `sync`, …), written once when missing or rejected, as the process exits. V8 refuses a cache made
 * for another source length, V8 version or flags; the key adds the bundle's SHA-1 and Node's
 * version, so a cache is only ever used for the bytes it was made from. It lives in a folder only
 * this user can write (~/.cache/crm, else one in the temporary folder; CRM_CODE_CACHE_DIR to move
 * it, NODE_DISABLE_COMPILE_CACHE=1 to turn it off): code from a cache is run as ours. The single
 * binary keeps its caches in a subfolder of that (`cacheSubfolder`: a write sweeps away the caches
 * of other bundles in its folder, and a user of both must not have each sweep the other's), and
 * brings one made by its build (`builtCache`, scripts/sea-main.cjs).
 */
function runBundle(bytes, file, requireOfBundle, { cacheSubfolder = '', builtCache = undefined } = {}) {
  const vm = require('node:vm');
  const source = bundleSource(bytes);
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? null : codeCacheDir(cacheSubfolder);
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
  // The single binary's, made by its build: used until this user has one (a command V8 refuses it
  // for writes one, as when there is none), and where no folder is writable.
  if (!process.env.NODE_DISABLE_COMPILE_CACHE) cachedData ??= builtCache;
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
  script.runInThisContext()(bundle.exports, requireOfBundle, bundle, file, dirname(file));
  bundle.loaded = true;
  return bundle.exports;
}

/**
 * The bundle's text. The builds make it all ASCII (scripts/bundle-stamp.mjs): read as Latin-1 into
 * a one-byte string, ~20x faster than decoding UTF-8 (~6 ms); checked, since Latin-1 of anything
 * else is wrong.
 */
function bundleSource(bytes) {
  return bytes.toString(require('node:buffer').isAscii(bytes) ? 'latin1' : 'utf8');
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
 * build stamped as the bundle's last line (scripts/bundle-stamp.mjs): hashing 2 MB and loading
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
function codeCacheDir(subfolder) {
  const { homedir, tmpdir } = require('node:os');
  const uid = process.getuid?.();
  const candidates = process.env.CRM_CODE_CACHE_DIR
    ? [process.env.CRM_CODE_CACHE_DIR]
    : [join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'crm'), join(tmpdir(), `crm-code-cache-${uid ?? 'user'}`)];
  // Only a folder this user owns and nobody else can write to, and the same of its parent when the
  // cache is in a subfolder: whoever can rename a folder on the path can put their cache in ours.
  const ours = (dir) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
  };
  for (const base of candidates) {
    try {
      if (!ours(base)) continue;
      const dir = subfolder ? join(base, subfolder) : base;
      if (dir === base || ours(dir)) return dir;
    } catch {
      // not writable here: try the next place
    }
  }
  return null;
}

module.exports = { runBundle };
