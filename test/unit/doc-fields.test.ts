import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/reference/fields.md is generated from the OpenAPI document: a schema change without regenerating it fails here. */
describe('docs/reference/fields.md', () => {
  it('matches the OpenAPI document of this build', () => {
    const run = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'docs-fields.mjs'), '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
