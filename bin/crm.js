#!/usr/bin/env node
// The `crm` command: a thin shim over the compiled CLI (npm ci builds it through `prepare`).
// It first refuses, in one line, a Node older than package.json's engines (README.md#requirements): the
// dependencies need Node 22, and better-sqlite3 13 crashes on Node 20 instead of saying so.
// This file must stay plain enough to run on any old Node. It is CommonJS (bin/package.json): Node
// starts an ES module entry through its ES module loader, ~2 ms more of every command (docs/benchmarks.md).
const nodeModule = require('node:module');
const { existsSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const engines = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines.node; // ">=22.19"
const need = engines
  .replace(/^>=\s*/, '')
  .split('.')
  .map(Number);
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

// The bundle runs through V8's code cache of an earlier run (bin/code-cache.cjs, which the single
// binary uses too); without it, the unbundled ES modules through Node's own compile cache.
const load = entry
  ? new Promise((resolve) => resolve(require('./code-cache.cjs').runBundle(readFileSync(entry), entry, nodeModule.createRequire(entry))))
  : import('../dist/cli/main.js');
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
