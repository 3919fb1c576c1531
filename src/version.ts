import { readFileSync } from 'node:fs';

// Set by esbuild's `define` when scripts/build-binary.mjs bundles the CLI into the single binary,
// where there is no package.json beside the code (and import.meta.url is empty in the CJS bundle).
declare const __CRM_VERSION__: string | undefined;

/** The package version: injected into the bundle, else read once from package.json (beside dist/ and src/). */
export const VERSION: string =
  typeof __CRM_VERSION__ === 'string'
    ? __CRM_VERSION__
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
