// The patches both bundles of the CLI apply to dependencies as esbuild loads them: the one bin/crm.js
// runs (scripts/build-cli-bundle.mjs) and the single binary's (scripts/build-binary.mjs).
import { readFile } from 'node:fs/promises';

/**
 * Loaded by dependencies as they load, for what `crm` never or rarely does: Fastify's server.js
 * requires node:https and node:http2 (the sandbox serves plain HTTP/1.1), commander requires
 * node:child_process (for executable subcommands, which crm has none of), and zod evaluates ~40
 * locales (it uses English). Together ~15 ms of CPU on every start; in the bundle the built-ins are
 * loaded on first use and zod's locale index holds English only. Each patch insists on the text it
 * replaces, so an update of the dependency that moves it fails the build instead of doing nothing.
 */
const lazy = (name, id) => `const ${name} = new Proxy({}, { get: (_, key) => require('${id}')[key] })`;
// node:assert takes ~4 ms to load (its diff and error-message modules), and find-my-way calls it
// for every route it adds: only an assertion that fails loads it, and throws Node's own error.
const lazyAssert = (id) => [`const assert = require('${id}')`, `const assert = (value, message) => { if (!value) require('node:assert')(value, message) }`];
const ASSERT = lazyAssert('node:assert');
const PATCHES = [
  {
    file: /node_modules\/fastify\/lib\/server\.js$/,
    replace: [
      ["const https = require('node:https')", lazy('https', 'node:https')],
      ["const http2 = require('node:http2')", lazy('http2', 'node:http2')],
      // node:dns is for Fastify's own listen, which the sandbox does not use (early-server.ts): ~0.6 ms.
      ["const dns = require('node:dns')", lazy('dns', 'node:dns')],
    ],
  },
  {
    file: /node_modules\/commander\/lib\/command\.js$/,
    replace: [["import childProcess from 'node:child_process';", `${lazy('childProcess', 'node:child_process')};`]],
  },
  { file: /node_modules\/zod\/v4\/locales\/index\.js$/, whole: 'export { default as en } from "./en.js";\n' },
  // Fastify checks each plugin's `fastify` version range with three functions of semver, but takes
  // the whole package (its index loads every range and comparison helper): ~1 ms of every start.
  // And the one range a plugin of the sandbox declares, `5.x`, is answered without semver when
  // Fastify's version is a release: an X-range of one major is met by every release of that major
  // (semver: `5.x` := >=5.0.0 <6.0.0-0). semver parses the range with its large regular
  // expressions, compiled on first use: 2-5 ms of every sandbox start (stamped, docs/benchmarks.md). So the
  // three functions load when first called: semver's module of expressions was 0.7 ms more (timed).
  {
    file: /node_modules\/fastify\/lib\/plugin-utils\.js$/,
    replace: [
      ASSERT,
      [
        "const semver = require('semver')",
        "const semver = { gt: (...a) => require('semver/functions/gt')(...a), coerce: (...a) => require('semver/functions/coerce')(...a), satisfies: (...a) => require('semver/functions/satisfies')(...a) }",
      ],
      [
        '  const requiredVersion = meta.fastify\n',
        "  const requiredVersion = meta.fastify\n  if (/^\\d+\\.\\d+\\.\\d+$/.test(this.version) && /^\\d+\\.x$/.test(requiredVersion) && requiredVersion.split('.')[0] === this.version.split('.')[0]) return\n",
      ],
    ],
  },
  { file: /node_modules\/find-my-way\/(index|lib\/constrainer|lib\/strategies\/accept-(host|version))\.js$/, replace: [ASSERT] },
  // pino (Fastify's logger) loads node:worker_threads (~2 ms) and node:assert for its transports,
  // which run a destination on a worker thread; the sandbox logs to stderr, on its own thread.
  {
    file: /node_modules\/pino\/lib\/tools\.js$/,
    replace: [
      ["const { isMainThread } = require('worker_threads')", ''],
      ['if (!opts.sync && isMainThread) {', "if (!opts.sync && require('worker_threads').isMainThread) {"],
    ],
  },
  {
    file: /node_modules\/thread-stream\/index\.js$/,
    replace: [
      lazyAssert('assert'),
      ["const { Worker } = require('worker_threads')", "function Worker (...args) { return new (require('worker_threads').Worker)(...args) }"],
    ],
  },
  { file: /node_modules\/sonic-boom\/index\.js$/, replace: [lazyAssert('assert')] },
  // @fastify/swagger loads the YAML writer (for /documentation/yaml, which crm does not serve) and
  // the $ref resolver (used when the OpenAPI document is built, on its first request) as it
  // registers: ~1.5 ms of every sandbox start.
  { file: /node_modules\/@fastify\/swagger\/lib\/spec\/(openapi|swagger)\/index\.js$/, replace: [["const yaml = require('yaml')", lazy('yaml', 'yaml')]] },
  {
    file: /node_modules\/@fastify\/swagger\/lib\/util\/add-hook\.js$/,
    replace: [["const Ref = require('json-schema-resolver')", "const Ref = (...args) => require('json-schema-resolver')(...args)"]],
  },
  {
    // find-my-way compiles two functions with `new Function` for every route it adds (~300 with
    // Fastify's HEAD routes; ~4 ms of a sandbox's start): one that builds the params object and one
    // that matches constraints, which crm never uses (no route has constraints). Here each is
    // compiled on its first call, then replaces itself; a route never asked for compiles neither.
    file: /node_modules\/find-my-way\/lib\/handler-storage\.js$/,
    replace: [
      [
        '      _createParamsObject: this._compileCreateParamsObject(params)\n    }\n',
        '      _createParamsObject: null\n    }\n    const storage = this\n    handlerObject._createParamsObject = function (p0, p1, p2, p3, extra) { const compiled = storage._compileCreateParamsObject(params); handlerObject._createParamsObject = compiled; return compiled(p0, p1, p2, p3, extra) }\n',
      ],
      [
        '      this._compileGetHandlerMatchingConstraints(constrainer, constraints)\n',
        '      this._getHandlerMatchingConstraints = function (derivedConstraints) { this._compileGetHandlerMatchingConstraints(constrainer, constraints); return this._getHandlerMatchingConstraints(derivedConstraints) }\n',
      ],
    ],
  },
  {
    // …and a prefix matcher with `new Function` for every static node it makes, most of them
    // replaced by others as later routes split them: 160 compiles, ~4 ms of a start (counted).
    // Each is compiled on its first match instead; the routes never asked for compile nothing.
    file: /node_modules\/find-my-way\/lib\/node\.js$/,
    replace: [
      [
        '  const lines = []\n  for (let i = 1; i < prefix.length; i++) {',
        '  let compiled = null\n  return function matchPrefix (path, i) { return (compiled ??= compilePrefixMatchNow(prefix))(path, i) }\n}\n\nfunction compilePrefixMatchNow (prefix) {\n  const lines = []\n  for (let i = 1; i < prefix.length; i++) {',
      ],
    ],
  },
  {
    // better-sqlite3's JavaScript is bundled (outside, Node's loader resolved, read and compiled its
    // ~15 files on every start: ~5 ms, docs/benchmarks.md); its native addon stays in its package. The lookup
    // finds the addon beside its own file (__dirname), which in the bundle is dist/: here it asks
    // Node where the installed package is, the same folder it used to be beside. Asked once: the
    // lookup tries three places, and each require.resolve was 1-1.5 ms of a start.
    file: /node_modules\/better-sqlite3\/lib\/binding\.js$/,
    replace: [
      [
        'const PREBUILD_PLATFORMS',
        "let installedAt;\nconst packageDir = () => (installedAt ??= path.dirname(require.resolve('better-sqlite3/package.json')));\nconst PREBUILD_PLATFORMS",
      ],
      ["path.join(__dirname, '..', 'build', 'Debug',", "path.join(packageDir(), 'build', 'Debug',"],
      ["path.join(__dirname, '..', 'build', 'Release',", "path.join(packageDir(), 'build', 'Release',"],
      ["path.join(__dirname, '..', 'prebuilds',", "path.join(packageDir(), 'prebuilds',"],
    ],
  },
  // Fastify finishes each route in an avvio `after` of its own (~150 in a sandbox): a plugin object,
  // a queue, a timer and a tick each, ~10 ms of every sandbox start (docs/benchmarks-history.md). All that `after` does is copy the instance's error handler,
  // serializer and error formatter into the route and wait for `preReady`, where the route's hooks
  // and schemas are set up. Here it is one `preReady` listener doing both: the values are read when
  // every plugin has loaded instead of when the queue reached the route, which can differ only if a
  // later plugin changed them (crm changes none after its routes), and an error thrown there still
  // fails ready() (avvio catches the listeners' errors). Routes cannot be added after `preReady`.
  {
    file: /node_modules\/fastify\/lib\/route\.js$/,
    replace: [
      ['      this.after((notHandledErr, done) => {\n        // Send context async\n', "      avvio.once('preReady', () => {\n        // Send context async\n"],
      ["        // Run hooks and more\n        avvio.once('preReady', () => {\n", '        // Run hooks and more\n        {\n'],
      ['          }\n        })\n\n        done(notHandledErr)\n      })\n', '          }\n        }\n      })\n'],
    ],
  },
];
export const patchDependencies = {
  name: 'patch-dependencies',
  setup(b) {
    for (const patch of PATCHES) {
      b.onLoad({ filter: patch.file }, async (args) => {
        let contents = await readFile(args.path, 'utf8');
        if (patch.whole) return { contents: patch.whole, loader: 'js' };
        for (const [eager, onDemand] of patch.replace) {
          if (!contents.includes(eager)) throw new Error(`${args.path} no longer has "${eager}": update scripts/bundle-patches.mjs`);
          contents = contents.replace(eager, onDemand);
        }
        return { contents, loader: 'js' };
      });
    }
  },
};
