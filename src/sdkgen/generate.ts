/**
 * The SDK generator's entry (docs/sdks.md): builds the resource view of an OpenAPI document
 * (lang/api-view.ts) and renders one language's generated files (lang/<language>.ts), then writes
 * them into the SDK's folder, or checks that they are already there. A file is generated when its
 * header says so; generated files the document no longer produces are removed, and hand-written
 * files are never touched. `npm run sdk` and `crm sdk generate` call it.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { buildApiView, type ApiView } from './lang/api-view.js';
import { renderGo } from './lang/go.js';
import { renderPhp } from './lang/php.js';
import { renderPython } from './lang/python.js';
import { renderTypeScript } from './lang/typescript.js';

const GENERATED_MARK = /^(?:<\?php\n)?(?:\/\/|#) (?:Code generated|Generated) by `npm run sdk`/;

const RENDERERS = { typescript: renderTypeScript, python: renderPython, go: renderGo, php: renderPhp } satisfies Record<
  string,
  (view: ApiView) => Map<string, string>
>;
export type Language = keyof typeof RENDERERS;
export const LANGUAGES = Object.keys(RENDERERS) as Language[];

export function renderLanguage(lang: Language, document: object): Map<string, string> {
  return RENDERERS[lang](buildApiView(document as Parameters<typeof buildApiView>[0]));
}

// What a package's own build or install leaves beside the sources (npm's dist/ and node_modules/,
// pip's build/ and *.egg-info/, Composer's vendor/): copies of generated files, never ours to remove.
const BUILD_OUTPUT = /^(?:dist|build|node_modules|vendor|[^/]*\.egg-info)(?:\/|$)/;
function isBuildOutput(relativeDir: string): boolean {
  return BUILD_OUTPUT.test(relativeDir.split(sep).join('/'));
}

function generatedFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(go|php|ts|py)$/.test(entry.name) || isBuildOutput(relative(dir, entry.parentPath))) continue;
    const path = join(entry.parentPath, entry.name);
    if (GENERATED_MARK.test(readFileSync(path, 'utf8').slice(0, 200))) found.push(path);
  }
  return found;
}

/** Writes the files; with check, writes nothing and returns the paths that differ. */
export function writeLanguage(lang: Language, document: object, outDir: string, check = false): string[] {
  const files = renderLanguage(lang, document);
  const differing: string[] = [];
  const wanted = new Set<string>();
  for (const [name, content] of files) {
    const path = join(outDir, name);
    wanted.add(path);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === content) continue;
    differing.push(relative(outDir, path));
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
  }
  for (const path of generatedFilesIn(outDir)) {
    if (wanted.has(path)) continue;
    differing.push(relative(outDir, path));
    if (!check) rmSync(path);
  }
  return differing.sort();
}
