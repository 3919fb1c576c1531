#!/usr/bin/env node
// `npm run sdk`: regenerates the generated files of the four SDKs in sdks/ from the OpenAPI document
// of this build (the same as `crm sdk generate --lang L --out sdks/L` for each). `--check` writes
// nothing and exits 1 when a committed file differs (CI runs that through test/unit/sdkgen.test.ts).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { LANGUAGES, writeLanguage } = await import(join(root, 'dist/sdkgen/generate.js'));
const document = JSON.parse(execFileSync(process.execPath, [join(root, 'bin/crm.js'), 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const check = process.argv.includes('--check');
let failed = false;
for (const lang of LANGUAGES) {
  const changed = writeLanguage(lang, document, join(root, 'sdks', lang), check);
  for (const file of changed) console.log(`${check ? 'differs' : 'wrote'}  sdks/${lang}/${file}`);
  if (check && changed.length > 0) failed = true;
}
if (failed) {
  console.error('The generated SDK files differ from the OpenAPI document: run `npm run sdk`.');
  process.exit(1);
}
