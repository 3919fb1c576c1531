import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IN_SEA, seaText } from '../../sea.js';

/**
 * The dashboard's built files (scripts/build-web.mjs writes dist/web/app.js and app.css), read
 * once, on the first request for the dashboard (not by every start, most of which never serve
 * it), and served from memory. In the single binary they are SEA assets 'web/app.js'
 * and 'web/app.css' (scripts/build-binary.mjs), the way the migrations are embedded.
 */
export interface DashboardAssets {
  html: string;
  js: string;
  css: string;
}

function readBuilt(file: string): string | undefined {
  try {
    if (IN_SEA) return seaText(`web/${file}`);
    // Resolved here, not at load time: in the bundle import.meta.url is empty.
    return readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', file), 'utf8');
  } catch {
    return undefined;
  }
}

const NOT_BUILT = "document.getElementById('app').textContent = 'The dashboard is not built: run npm run build.';";

let cached: DashboardAssets | undefined;

export function dashboardAssets(): DashboardAssets {
  if (cached) return cached;
  const js = readBuilt('app.js') ?? NOT_BUILT;
  const css = readBuilt('app.css') ?? '';
  // No inline script or style: the CSP allows only 'self'.
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<title>crm dashboard</title>',
    '<link rel="icon" href="data:,">',
    '<link rel="stylesheet" href="/dashboard/assets/app.css">',
    '<script type="module" src="/dashboard/assets/app.js"></script>',
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
    '',
  ].join('\n');
  return (cached = { html, js, css });
}

/** The API reference's files (Swagger UI and its start script), by name under /docs/assets/. */
export const DOCS_FILES = { 'swagger-ui-bundle.js': 'text/javascript', 'swagger-ui.css': 'text/css', 'init.js': 'text/javascript' } as const;
export type DocsFile = keyof typeof DOCS_FILES;

const docsCache = new Map<DocsFile, string | undefined>();

/** One of the API reference's files, read on first use: 2 MB that a sandbox start need not pay for. */
export function docsAsset(file: DocsFile): string | undefined {
  if (!docsCache.has(file)) docsCache.set(file, readBuilt(`docs/${file}`));
  return docsCache.get(file);
}

export const DOCS_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<title>crm API reference</title>',
  '<link rel="icon" href="data:,">',
  '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">',
  '</head>',
  '<body>',
  '<div id="swagger-ui"></div>',
  '<script src="/docs/assets/swagger-ui-bundle.js"></script>',
  '<script src="/docs/assets/init.js"></script>',
  '</body>',
  '</html>',
  '',
].join('\n');
