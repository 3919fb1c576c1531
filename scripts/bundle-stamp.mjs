// The last step of both bundles of the CLI (scripts/build-cli-bundle.mjs, scripts/build-binary.mjs).
import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';

/**
 * The bundle's SHA-1, stamped as its last line: bin/code-cache.cjs names V8's code cache after it
 * without hashing megabytes on every start (~10 ms with loading node:crypto, docs/benchmarks.md). Of the bytes
 * above it. Before that, the bundle is made all ASCII: esbuild escapes strings but leaves regular
 * expression literals as written (the masking rules', src/sync/mask/mask.ts), and one such character made
 * Node read the whole bundle as UTF-8 into a two-byte string (~6 ms for 2 MB, against ~0.3 ms for an
 * ASCII one-byte read). Each UTF-16 unit outside ASCII becomes \uXXXX, which means the same in a
 * string, a regular expression (with or without the u flag: a surrogate pair stays a pair) and an
 * identifier.
 */
export async function asciiAndStamp(file) {
  const original = await readFile(file, 'utf8');
  // A raw template would keep the escape as written, and after a backslash it would be another
  // escape: neither may occur (a build error to look at, not a quietly changed bundle).
  if (/\\[^\x00-\x7f]/.test(original)) throw new Error(`${file}: a backslash before a non-ASCII character; review the ASCII escaping`);
  for (const raw of original.matchAll(/String\.raw`(?:[^`\\]|\\.)*`/gs)) {
    if (/[^\x00-\x7f]/.test(raw[0])) throw new Error(`${file}: non-ASCII text in a String.raw template: ${raw[0].slice(0, 80)}`);
  }
  const escaped = original.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  await writeFile(file, escaped);
  await appendFile(file, `\n// crm-bundle-sha1 ${createHash('sha1').update(escaped).digest('hex')}\n`);
}
