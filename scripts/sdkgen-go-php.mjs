#!/usr/bin/env node
// Regenerates the generated files of sdks/go and sdks/php from the OpenAPI document of this build
// (`npm run build` first). `--check` writes nothing and exits 1 when the committed files differ.
// Interim entry until the shared generator's `npm run sdk` drives the Go and PHP renderers.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { writeLanguage } = await import(join(root, 'dist/sdkgen/lang/write-go-php.js'));
const document = JSON.parse(execFileSync(process.execPath, [join(root, 'bin/crm.js'), 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const check = process.argv.includes('--check');
let failed = false;
for (const lang of ['go', 'php']) {
  const changed = writeLanguage(lang, document, join(root, 'sdks', lang), check);
  for (const file of changed) console.log(`${check ? 'differs' : 'wrote'}  sdks/${lang}/${file}`);
  if (check && changed.length > 0) failed = true;
}
if (failed) {
  console.error('The generated SDK files differ from the OpenAPI document: run `node scripts/sdkgen-go-php.mjs`.');
  process.exit(1);
}
