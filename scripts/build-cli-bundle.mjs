// Builds dist/cli.bundle.cjs: the CLI (dist/cli/main.js, the lazy `import()`s of its commands, and
// the dependencies they load) as one CommonJS file, which bin/crm.js runs when it is there and not
// older than dist/cli/main.js. Resolving and reading ~600 module files was most of a cold start
// (docs/benchmarks.md, issue #27); one file read, compiled once into Node's compile cache, is not.
// The unbundled dist/ stays as it is: the programmatic API (dist/index.js) and a fallback.
//
// A few packages stay outside (see `external`), found in node_modules as usual. Modules of dist/
// that find files beside themselves through import.meta.url (migrations, the seed image, the
// dashboard's assets, package.json) get the URL of the file they were built to instead, made from
// the bundle's own location at run time, so the installed package works wherever it lands.
import { createHash } from 'node:crypto';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';
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
  // Left in node_modules (dependencies, so installed): two packages only loaded on demand — undici
  // (the HTTP client of sync and the webhook worker, a quarter of the bundle) and the MCP SDK —
  // which every start would otherwise read and hash for nothing. better-sqlite3's native addon
  // stays there too, found through its package.json at run time (PATCHES above); its JavaScript is bundled.
  external: ['undici', '@modelcontextprotocol/sdk', 'better-sqlite3/package.json'],
  plugins: [importMetaUrl, patchDependencies],
  legalComments: 'none',
  // A third less to read and hash on every start; names are kept, so stack traces still say where.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  metafile: true,
});
// The bundle's SHA-1, stamped as its last line: bin/crm.js names V8's code cache after it without
// hashing 2 MB on every start (~10 ms with loading node:crypto, issue #27). Of the bytes above it.
// Before that, the bundle is made all ASCII: esbuild escapes strings but leaves regular expression
// literals as written (the masking rules', src/sync/mask.ts), and one such character made Node read
// the whole 2 MB as UTF-8 into a two-byte string (~6 ms, against ~0.3 ms for an ASCII one-byte read).
// Each UTF-16 unit outside ASCII becomes \uXXXX, which means the same in a string, a regular
// expression (with or without the u flag: a surrogate pair stays a pair) and an identifier.
const original = await readFile(OUT, 'utf8');
// A raw template would keep the escape as written, and after a backslash it would be another
// escape: neither may occur (a build error to look at, not a quietly changed bundle).
if (/\\[^\x00-\x7f]/.test(original)) throw new Error('build-cli-bundle: a backslash before a non-ASCII character; review the ASCII escaping');
for (const raw of original.matchAll(/String\.raw`(?:[^`\\]|\\.)*`/gs)) {
  if (/[^\x00-\x7f]/.test(raw[0])) throw new Error(`build-cli-bundle: non-ASCII text in a String.raw template: ${raw[0].slice(0, 80)}`);
}
const escaped = original.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
await writeFile(OUT, escaped);
await appendFile(OUT, `\n// crm-bundle-sha1 ${createHash('sha1').update(escaped).digest('hex')}\n`);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
process.stderr.write(`build-cli-bundle: ${relative(ROOT, OUT)} (${(bytes / 1e6).toFixed(1)} MB, ${Object.keys(result.metafile.inputs).length} modules)\n`);
