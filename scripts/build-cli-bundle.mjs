// Builds dist/cli.bundle.cjs: the CLI (dist/cli/main.js, the lazy `import()`s of its commands, and
// the dependencies they load) as one CommonJS file, which bin/crm.js runs when it is there and not
// older than dist/cli/main.js. Resolving and reading ~600 module files was most of a cold start
// (docs/benchmarks.md); one file read, compiled once into Node's compile cache, is not.
// The unbundled dist/ stays as it is: the programmatic API (dist/index.js) and a fallback.
//
// A few packages stay outside (see `external`), found in node_modules as usual. Modules of dist/
// that find files beside themselves through import.meta.url (migrations, the seed image, the
// dashboard's assets, package.json) get the URL of the file they were built to instead, made from
// the bundle's own location at run time, so the installed package works wherever it lands.
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { asciiAndStamp } from './bundle-stamp.mjs';
import { patchDependencies } from './bundle-patches.mjs';

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

const result = await build({
  entryPoints: [resolve(DIST, 'cli/main.js')],
  outfile: OUT,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  // Left in node_modules (dependencies, so installed): packages only loaded on demand — undici
  // (the HTTP client of sync and the webhook worker, a quarter of the bundle), the MCP SDK and the
  // AI SDK with its providers (the assistant's first question; 0.85 MB) — which every start would
  // otherwise read and hash for nothing. better-sqlite3's native addon
  // stays there too, found through its package.json at run time (PATCHES above); its JavaScript is bundled.
  external: ['undici', '@modelcontextprotocol/sdk', 'ai', '@ai-sdk/*', 'better-sqlite3/package.json'],
  plugins: [importMetaUrl, patchDependencies],
  legalComments: 'none',
  // A third less to read and hash on every start; names are kept, so stack traces still say where.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  metafile: true,
});
await asciiAndStamp(OUT);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
process.stderr.write(`build-cli-bundle: ${relative(ROOT, OUT)} (${(bytes / 1e6).toFixed(1)} MB, ${Object.keys(result.metafile.inputs).length} modules)\n`);
