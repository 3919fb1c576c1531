// Builds the dashboard (docs/dashboard.md): web/src/main.tsx and everything it imports (Preact,
// @preact/signals, one file per page in web/src/pages) into one script, dist/web/app.js, and its
// styles into one sheet, dist/web/app.css. The sandbox reads both once at start and serves them
// from memory (src/http/dashboard/assets.ts); the single binary embeds them (build-binary.mjs).
// It also copies the API reference's files to dist/web/docs: Swagger UI's prebuilt bundle and
// stylesheet (swagger-ui-dist, a devDependency) and web/docs/init.js, served at /docs.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'web');
mkdirSync(OUT, { recursive: true });

await build({
  entryPoints: { app: join(ROOT, 'web', 'src', 'main.tsx') },
  outdir: OUT,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const DOCS = join(OUT, 'docs');
mkdirSync(DOCS, { recursive: true });
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE']) copyFileSync(join(swaggerUi, file), join(DOCS, file));
copyFileSync(join(ROOT, 'web', 'docs', 'init.js'), join(DOCS, 'init.js'));
