/**
 * Writes (or checks) the generated files of the Go and PHP SDKs from an OpenAPI document. A file is
 * generated when its header says so; generated files the document no longer produces are removed,
 * and hand-written files are never touched.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildApiView } from './api-view.js';
import { renderGo } from './go.js';
import { renderPhp } from './php.js';

const GENERATED_MARK = /^(?:<\?php\n)?\/\/ (?:Code generated|Generated) by `npm run sdk`/;

export type Language = 'go' | 'php';

export function renderLanguage(lang: Language, document: object): Map<string, string> {
  const view = buildApiView(document as Parameters<typeof buildApiView>[0]);
  return lang === 'go' ? renderGo(view) : renderPhp(view);
}

function generatedFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(go|php)$/.test(entry.name)) continue;
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
