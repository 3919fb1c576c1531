import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs stand alone: every relative link in README.md, docs/ and sdks/ resolves to a
 * file inside this repository, and a `#fragment` to a heading of that file (GitHub's anchors). A link
 * that leaves the repository fails even when the file exists on this machine (a link to a contract file beside the checkout did).
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? markdownFiles(path) : entry.name.endsWith('.md') ? [path] : [];
  });
}

const FILES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs')), ...markdownFiles(join(ROOT, 'sdks'))];

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Link targets: [text](target), ![alt](target), and [label]: target definitions. */
export function linkTargets(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const defined = [...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...defined];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

function problems(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — not this repository's
    const [path, fragment] = target.split('#', 2) as [string, string | undefined];
    const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
    if (resolved !== ROOT && !resolved.startsWith(ROOT + sep)) {
      found.push(`${target}: outside the repository (${relative(ROOT, resolved)})`);
      continue;
    }
    if (!existsSync(resolved)) {
      found.push(`${target}: no such file`);
      continue;
    }
    if (fragment && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchorsOf(readFileSync(resolved, 'utf8')).has(fragment)) {
      found.push(`${target}: no heading #${fragment} in ${relative(ROOT, resolved)}`);
    }
  }
  return found;
}

describe('documentation links', () => {
  it('finds the Markdown files and their links (a sanity check on the walk)', () => {
    const names = FILES.map((f) => relative(ROOT, f));
    expect(names).toEqual(
      expect.arrayContaining(['README.md', join('docs', 'api.md'), join('docs', 'reference', 'README.md'), join('sdks', 'go', 'README.md')]),
    );
    expect(linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it('reads links and anchors as GitHub does', () => {
    expect(linkTargets('[a](x.md) ![i](img.png "t") `[no](code.md)`\n[d]: ref.md\n```\n[no](fenced.md)\n```')).toEqual(['x.md', 'img.png', 'ref.md']);
    expect([...anchorsOf('# Safe retries: Idempotency-Key\n## Access: API keys, OAuth 2.0, scopes\n## Tests\n## Tests')]).toEqual([
      'safe-retries-idempotency-key',
      'access-api-keys-oauth-20-scopes',
      'tests',
      'tests-1',
    ]);
  });

  it.each(FILES.map((f) => [relative(ROOT, f), f]))('%s: every relative link resolves inside the repository', (_name, file) => {
    expect(problems(file)).toEqual([]);
  });

  it('no page points readers at the contract files outside the repository, not even in code', () => {
    for (const file of FILES) expect(readFileSync(file, 'utf8'), relative(ROOT, file)).not.toMatch(/shared\/(API|SDK|ARCHITECTURE)\.md/);
  });
});
