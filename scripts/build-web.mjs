// Builds the dashboard (web/) into dist/web: index.html, app.js (Preact and the pages, one file) and
// app.css, which src/http/routes/dashboard.ts serves from memory and build-binary.mjs embeds.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'web');
mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: [join(ROOT, 'web/src/main.tsx')],
  outfile: join(OUT, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(ROOT, 'web/src/app.css'), join(OUT, 'app.css'));
copyFileSync(join(ROOT, 'web/index.html'), join(OUT, 'index.html'));
