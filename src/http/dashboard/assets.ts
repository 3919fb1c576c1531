import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IN_SEA, seaText } from '../../sea.js';

/**
 * The dashboard's built files (scripts/build-web.mjs writes dist/web/app.js and app.css), read
 * once at start and served from memory. In the single binary they are SEA assets 'web/app.js'
 * and 'web/app.css' (scripts/build-binary.mjs), the way the migrations are embedded.
 */
export interface DashboardAssets {
  html: string;
  js: string;
  css: string;
}

const FILES = ['app.js', 'app.css'] as const;

function readBuilt(file: (typeof FILES)[number]): string | undefined {
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
