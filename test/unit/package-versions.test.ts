import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/versioning.md: each package's version is written in its manifest, in its code (what its
 * User-Agent reports) and as its changelog's newest heading, and the three agree; the names are
 * the ones the docs tell users to install.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const match = (text: string, pattern: RegExp, what: string): string => {
  const found = pattern.exec(text)?.[1];
  if (!found) throw new Error(`${what}: no match for ${pattern}`);
  return found;
};
const SEMVER = /^\d+\.\d+\.\d+(?:-[\w.]+)?$/;

/** The newest released version in a Keep a Changelog file: the first `## [x.y.z]` after Unreleased. */
const changelogVersion = (path: string) => match(read(path), /^## \[(\d+\.\d+\.\d+[^\]]*)\]/m, path);

const PACKAGES = [
  {
    name: 'the CLI (crm-sandbox)',
    manifest: () => (JSON.parse(read('package.json')) as { version: string }).version,
    code: () => (JSON.parse(read('package.json')) as { version: string }).version, // src/version.ts reads package.json
    changelog: 'CHANGELOG.md',
  },
  {
    name: 'the TypeScript SDK',
    manifest: () => (JSON.parse(read('sdks/typescript/package.json')) as { version: string }).version,
    code: () => match(read('sdks/typescript/src/core.ts'), /export const VERSION = '([^']+)'/, 'core.ts'),
    changelog: 'sdks/typescript/CHANGELOG.md',
  },
  {
    name: 'the Python SDK',
    manifest: () => match(read('sdks/python/pyproject.toml'), /^version = "([^"]+)"/m, 'pyproject.toml'),
    code: () => match(read('sdks/python/crm/_core.py'), /^VERSION = "([^"]+)"/m, '_core.py'),
    changelog: 'sdks/python/CHANGELOG.md',
  },
  {
    name: 'the PHP SDK',
    manifest: () => (JSON.parse(read('sdks/php/composer.json')) as { version: string }).version,
    code: () => match(read('sdks/php/src/Client.php'), /public const VERSION = '([^']+)'/, 'Client.php'),
    changelog: 'sdks/php/CHANGELOG.md',
  },
  {
    name: 'the Go SDK (its tag is the manifest)',
    manifest: () => match(read('sdks/go/client.go'), /^const Version = "([^"]+)"/m, 'client.go'),
    code: () => match(read('sdks/go/client.go'), /^const Version = "([^"]+)"/m, 'client.go'),
    changelog: 'sdks/go/CHANGELOG.md',
  },
];

describe('package versions', () => {
  it.each(PACKAGES)('$name: manifest, code and changelog name one semver version', ({ manifest, code, changelog }) => {
    const version = manifest();
    expect(version).toMatch(SEMVER);
    expect(code()).toBe(version);
    expect(changelogVersion(changelog)).toBe(version);
    expect(read(changelog)).toContain('## [Unreleased]');
  });

  it('names the packages as docs/versioning.md does', () => {
    const doc = read('docs/versioning.md');
    const names = [
      (JSON.parse(read('package.json')) as { name: string }).name,
      (JSON.parse(read('sdks/typescript/package.json')) as { name: string }).name,
      match(read('sdks/python/pyproject.toml'), /^name = "([^"]+)"/m, 'pyproject.toml'),
      (JSON.parse(read('sdks/php/composer.json')) as { name: string }).name,
      match(read('sdks/go/go.mod'), /^module (\S+)$/m, 'go.mod'),
    ];
    for (const name of names) expect(doc).toContain(`\`${name}\``);
  });

  it('never tells a user to run `npx crm`, which fetches a package that is not ours', () => {
    const pages = ['README.md', 'docs/mcp.md', 'docs/ci.md', 'sdks/typescript/README.md', 'sdks/python/README.md', 'sdks/php/README.md', 'sdks/go/README.md'];
    for (const page of pages) {
      // What a user copies: the lines of code blocks (prose may warn against `npx crm`).
      const code = [...read(page).matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n'));
      const commands = code.filter((line) => /(^|[\s"'`])npx crm\b(?!-)/.test(line) || /"npx",\s*"args":\s*\[(?:"-y",\s*)?"crm"/.test(line));
      expect(commands, page).toEqual([]);
    }
  });
});
