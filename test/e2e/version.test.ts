import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProcess, type RunningSandbox } from '../helpers/sandbox.js';

/**
 * One version everywhere a running sandbox states it: /healthz and the OpenAPI document's
 * `info.version` say the package's version (src/version.ts), as `crm --version` does.
 */
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--no-seed']);
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('the version a sandbox states', () => {
  it('is the package version on /healthz', async () => {
    const response = await fetch(`${sandbox.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', version: PACKAGE_VERSION });
  });

  it('is the package version in the OpenAPI document', async () => {
    const response = await fetch(`${sandbox.baseUrl}/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { info: { version: string } }).info.version).toBe(PACKAGE_VERSION);
  });
});
