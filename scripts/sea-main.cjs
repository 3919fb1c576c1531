// The single binary's main script (scripts/build-binary.mjs bundles it with bin/code-cache.cjs): runs
// the CLI's bundle, embedded as the asset `crm.cjs`, as bin/crm.js runs dist/cli.bundle.cjs, through
// V8's code cache of an earlier run. Until this user has one, the cache the build made by running
// the binary (a sandbox start and its first API answer: `crm.cjs.v8`); a fresh CI machine starts
// from that one too. In a SEA process.argv[1] is the binary's own path, so commander sees the
// usual [node, script, ...args].
const { getRawAsset } = require('node:sea');
const { runBundle } = require('../bin/code-cache.cjs');

/** An embedded asset's bytes, read in place; undefined when the binary has none by that name. */
function asset(name) {
  try {
    return Buffer.from(getRawAsset(name));
  } catch {
    return undefined;
  }
}

// The caches go to a folder of their own (`binary`): a start of another bundle never sweeps them away.
const { main } = runBundle(asset('crm.cjs'), process.execPath, require, { cacheSubfolder: 'binary', builtCache: asset('crm.cjs.v8') });
main(process.argv).then((code) => {
  process.exitCode = code;
});
