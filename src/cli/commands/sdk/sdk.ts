import { resolve } from 'node:path';
import { CliError, printJson } from '../../output.js';
import { EXIT } from '../../exit-codes.js';

/**
 * `crm sdk generate --lang L --out DIR`: writes the generated files of one SDK (its resources and
 * models) from this crm's OpenAPI document into DIR, next to the SDK's hand-written core.
 * `--check` writes nothing and fails (exit 1) when DIR differs, as CI does for sdks/.
 */
export async function sdkGenerateCommand(options: { lang: string; out: string; check: boolean; json: boolean }): Promise<void> {
  const [{ LANGUAGES, writeLanguage }, { openApiDocumentOffline }] = await Promise.all([
    import('../../../sdkgen/generate.js'),
    import('../openapi/openapi.js'),
  ]);
  const lang = LANGUAGES.find((l) => l === options.lang);
  if (!lang) throw new CliError(`--lang takes one of ${LANGUAGES.join(', ')}, not '${options.lang}'.`, EXIT.usage);
  const out = resolve(options.out);
  const changed = writeLanguage(lang, await openApiDocumentOffline(), out, options.check);
  if (options.json) printJson({ lang, out, check: options.check, [options.check ? 'differs' : 'written']: changed });
  else if (changed.length === 0) process.stdout.write(`${out}: the ${lang} SDK's generated files are up to date.\n`);
  else for (const file of changed) process.stdout.write(`${options.check ? 'differs' : 'wrote'}  ${file}\n`);
  if (options.check && changed.length > 0)
    throw new CliError(
      `${changed.length} generated file(s) differ: run \`crm sdk generate --lang ${lang} --out ${options.out}\` (or npm run sdk).`,
      EXIT.failure,
    );
}
