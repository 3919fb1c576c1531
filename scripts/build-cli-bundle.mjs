// Builds dist/cli.bundle.cjs: the CLI (dist/cli/main.js, the lazy `import()`s of its commands, and
// the dependencies they load) as one CommonJS file, which bin/crm.js runs when it is there and not
// older than dist/cli/main.js. Resolving and reading ~600 module files was most of a cold start
// (docs/benchmarks.md, issue #27); one file read, compiled once into Node's compile cache, is not.
// The unbundled dist/ stays as it is: the programmatic API (dist/index.js) and a fallback.
//
// better-sqlite3 stays outside (a native addon found through its own package). Modules of dist/
// that find files beside themselves through import.meta.url (migrations, the seed image, the
// dashboard's assets, package.json) get the URL of the file they were built to instead, made from
// the bundle's own location at run time, so the installed package works wherever it lands.
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');
const OUT = resolve(DIST, 'cli.bundle.cjs');

try {
  await stat(resolve(DIST, 'cli/main.js'));
} catch {
  throw new Error('dist/cli/main.js is missing: run tsc first (npm run build does)');
}

/** import.meta.url in a dist/ module, as the URL that module has in the unbundled tree. */
const importMetaUrl = {
  name: 'import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\/dist\/.*\.js$/ }, async (args) => {
      const contents = await readFile(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return { contents, loader: 'js' };
      const fromBundle = relative(DIST, args.path).split('\\').join('/');
      const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(fromBundle)})).href`;
      return { contents: contents.replaceAll('import.meta.url', `(${url})`), loader: 'js' };
    });
  },
};

/**
 * Fastify's server.js requires node:https and node:http2 as it loads, for servers the sandbox never
 * makes (plain HTTP/1.1): ~10 ms of CPU on every start. In the bundle they are loaded on first use.
 */
const LAZY = { 'node:https': 'https', 'node:http2': 'http2' };
const lazyServerModules = {
  name: 'lazy-server-modules',
  setup(b) {
    b.onLoad({ filter: /node_modules\/fastify\/lib\/server\.js$/ }, async (args) => {
      let contents = await readFile(args.path, 'utf8');
      for (const [id, name] of Object.entries(LAZY)) {
        const eager = `const ${name} = require('${id}')`;
        if (!contents.includes(eager)) throw new Error(`${args.path} no longer has "${eager}": update build-cli-bundle.mjs`);
        contents = contents.replace(eager, `const ${name} = new Proxy({}, { get: (_, key) => require('${id}')[key] })`);
      }
      return { contents, loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [resolve(DIST, 'cli/main.js')],
  outfile: OUT,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['better-sqlite3'],
  plugins: [importMetaUrl, lazyServerModules],
  legalComments: 'none',
  // A third less to read and hash on every start; names are kept, so stack traces still say where.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
process.stderr.write(`build-cli-bundle: ${relative(ROOT, OUT)} (${(bytes / 1e6).toFixed(1)} MB, ${Object.keys(result.metafile.inputs).length} modules)\n`);
