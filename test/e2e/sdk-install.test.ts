import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmPack, readmeBlock, recordingProxy, ROOT, run } from '../helpers/packages.js';
import { startSandboxProcess, tempDir, type RunningSandbox } from '../helpers/sandbox.js';
import { sdkSnippet } from '../../web/src/pages/overview-snippet.js';

/**
 * Each SDK installed the way its ecosystem installs things, into a fresh project in a temporary
 * folder outside the checkout, with nothing from the network (docs/sdks.md#tests): the TypeScript SDK
 * through `npm pack` and `npm install`, Python through pip into a fresh venv, PHP through a Composer
 * path repository, Go through a `replace` with GOPROXY=off. Each then runs its README's quick start
 * (the README's own code block) against a real sandbox, through a recording proxy that shows the
 * User-Agent each sent: the SDK's name and the version its manifest declares.
 */
const SDKS = join(ROOT, 'sdks');
const temp = tempDir('crm-sdk-install-');
let sandbox: RunningSandbox;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--no-seed']);
  proxy = await recordingProxy(sandbox.baseUrl);
});

afterAll(async () => {
  await proxy?.close();
  await sandbox?.stop();
  temp.remove();
});

const readme = (lang: string) => readFileSync(join(SDKS, lang, 'README.md'), 'utf8');
const sandboxEnv = () => ({ CRM_BASE_URL: proxy.url, CRM_API_KEY: sandbox.apiKey });

/** A fresh folder for one project. */
function project(name: string): string {
  const dir = join(temp.path, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Runs a quick start and checks what it printed (`lead_… new`: the lead it made on the sandbox) and
 * the User-Agent of every request it sent.
 */
async function expectQuickStart(start: () => Promise<{ stdout: string }>, userAgent: RegExp): Promise<void> {
  const from = proxy.seen.length;
  const { stdout } = await start();
  expect(stdout.trim()).toMatch(/^lead_\w+ new$/);
  const id = stdout.trim().split(' ')[0]!;
  const stored = await fetch(`${sandbox.baseUrl}/v1/leads/${id}`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  expect(stored.status).toBe(200);
  expect(((await stored.json()) as { id: string }).id).toBe(id);
  const agents = proxy.seen.slice(from).map((r) => r.headers['user-agent']);
  expect(agents.length).toBeGreaterThan(0);
  for (const agent of agents) expect(agent).toMatch(userAgent);
}

const escaped = (version: string) => version.replace(/\./g, '\\.');

describe('the TypeScript SDK, packed and installed with npm', () => {
  const manifest = JSON.parse(readFileSync(join(SDKS, 'typescript', 'package.json'), 'utf8')) as { name: string; version: string };
  const agent = new RegExp(`^crm-sdk-typescript/${escaped(manifest.version)} \\(node v24\\.`);
  let tarball: string;
  const projects: Record<'cjs' | 'esm', string> = { cjs: '', esm: '' };

  beforeAll(async () => {
    const pack = await npmPack(join(SDKS, 'typescript'), temp.path); // prepack builds dist/ with tsc
    tarball = pack.tarball;
    const paths = pack.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/generated/resources.js', 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']),
    );
    expect(paths.filter((p) => !/^(dist\/.*\.(js|d\.ts)|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(p))).toEqual([]);
    for (const kind of ['cjs', 'esm'] as const) {
      const dir = (projects[kind] = project(`ts-${kind}`));
      await run('npm', ['init', '-y'], { cwd: dir });
      if (kind === 'esm') await run('npm', ['pkg', 'set', 'type=module'], { cwd: dir });
      await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: dir });
    }
  }, 120_000);

  it('runs the CommonJS quick start in a fresh `npm init -y` project (require of the ES module)', async () => {
    const { type } = JSON.parse(readFileSync(join(projects.cjs, 'package.json'), 'utf8')) as { type?: string };
    expect(type ?? 'commonjs').toBe('commonjs');
    writeFileSync(join(projects.cjs, 'hello.js'), readmeBlock(readme('typescript'), 'hello.js'));
    await expectQuickStart(() => run(process.execPath, ['hello.js'], { cwd: projects.cjs, env: sandboxEnv() }), agent);
  });

  it('runs the CommonJS quick start on Node 22 too, the oldest Node the package names', async () => {
    // Node 22.12 is the first 22 that loads an ES module through require() without a flag.
    const node22 = execFileSync('bash', [join(ROOT, '.ci', 'node.sh'), '22'], { encoding: 'utf8' }).trim();
    const engines = (JSON.parse(readFileSync(join(SDKS, 'typescript', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=22.12');
    await expectQuickStart(
      () => run(node22, ['hello.js'], { cwd: projects.cjs, env: sandboxEnv() }),
      new RegExp(`^crm-sdk-typescript/${escaped(manifest.version)} \\(node v22\\.`),
    );
  }, 120_000);

  it('runs the ES module quick start (top-level await)', async () => {
    writeFileSync(join(projects.esm, 'hello.mjs'), readmeBlock(readme('typescript'), 'hello.mjs'));
    await expectQuickStart(() => run(process.execPath, ['hello.mjs'], { cwd: projects.esm, env: sandboxEnv() }), agent);
  });

  it("runs the dashboard Overview's SDK snippet as copied (an ES module)", async () => {
    const post = (path: string, body: object) =>
      fetch(`${sandbox.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const client = await post('/v1/clients', { name: 'Snippet Ltd', email: 'snippet@example.com' });
    for (const title of ['Snippet pilot', 'Snippet renewal'])
      await post('/v1/deals', { title, value: 100, currency: 'EUR', stage: 'lead_in', client_id: client.id });
    writeFileSync(join(projects.esm, 'deals.mjs'), sdkSnippet(proxy.url));
    const from = proxy.seen.length;
    const { stdout } = await run(process.execPath, ['deals.mjs'], { cwd: projects.esm, env: sandboxEnv() });
    const listed = (await (await fetch(`${sandbox.baseUrl}/v1/deals?limit=5`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } })).json()) as {
      data: { id: string; title: string }[];
    };
    expect(listed.data.length).toBeGreaterThan(0);
    expect(stdout.trim().split('\n')).toEqual(listed.data.map((d) => `${d.id} ${d.title}`));
    expect(proxy.seen.slice(from).map((r) => r.headers['user-agent'])).toEqual([expect.stringMatching(agent)]);
  });

  it.each(['cjs', 'esm'] as const)('type-checks the TypeScript quick start with tsc --strict, nodenext, in a %s project', async (kind) => {
    const dir = projects[kind];
    writeFileSync(join(dir, 'hello.ts'), readmeBlock(readme('typescript'), 'hello.ts'));
    const compilerOptions = {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      noEmit: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['hello.ts'] }));
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--listFiles'], { cwd: dir }).then(({ stdout }) => {
      // The types came from the installed package's .d.ts, not from the checkout's sources.
      expect(stdout).toContain(join(dir, 'node_modules', '@crm-sandbox', 'sdk', 'dist', 'index.d.ts'));
    });
  });
});

describe('the Python SDK, installed with pip into a fresh venv', () => {
  const version = /^version = "([^"]+)"/m.exec(readFileSync(join(SDKS, 'python', 'pyproject.toml'), 'utf8'))![1]!;
  let python: string;
  let source: string;

  beforeAll(async () => {
    // The venv builds the package offline with its own setuptools, which needs `wheel` (setuptools
    // < 70.1): the first Python that has both, its site-packages visible in the venv.
    python = '';
    for (const candidate of ['python3', '/usr/bin/python3']) {
      const ok = await run(candidate, ['-c', 'import ensurepip, setuptools, wheel'], { cwd: temp.path }).then(
        () => true,
        () => false,
      );
      if (ok) {
        python = candidate;
        break;
      }
    }
    if (!python) throw new Error('No python3 with venv, setuptools and wheel: apt-get install python3-venv python3-setuptools python3-wheel (.ci/run does).');
    // A copy of the folder: pip builds in place and leaves build/ and *.egg-info/ behind.
    source = join(temp.path, 'python-sdk');
    cpSync(join(SDKS, 'python'), source, { recursive: true, filter: (path) => !/(__pycache__|\/tests|\/build|egg-info)$/.test(path) });
    await run(python, ['-m', 'venv', '--system-site-packages', join(temp.path, 'venv')], { cwd: temp.path });
  }, 60_000);

  it('pip installs the folder without the network and runs the README quick start', async () => {
    const bin = join(temp.path, 'venv', 'bin');
    await run(join(bin, 'pip'), ['install', '--no-build-isolation', '--no-index', '--no-deps', source], { cwd: temp.path });
    const dir = project('py-project'); // not the SDK's folder: `import crm` must find the installed package
    writeFileSync(join(dir, 'hello.py'), readmeBlock(readme('python'), 'hello.py'));
    await expectQuickStart(
      () => run(join(bin, 'python'), ['hello.py'], { cwd: dir, env: sandboxEnv() }),
      new RegExp(`^crm-sdk-python/${escaped(version)} \\(python 3\\.`),
    );
    const where = await run(join(bin, 'python'), ['-c', 'import crm, os; print(os.path.dirname(crm.__file__))'], { cwd: dir });
    expect(where.stdout.trim()).toBe(join(temp.path, 'venv', 'lib', `python3.${/python3\.(\d+)/.exec(where.stdout)?.[1]}`, 'site-packages', 'crm'));
  }, 60_000);

  it('pip wheel builds a typed wheel (py.typed inside)', async () => {
    const out = join(temp.path, 'wheels');
    await run(join(temp.path, 'venv', 'bin', 'pip'), ['wheel', '--no-build-isolation', '--no-index', '--no-deps', '-w', out, source], { cwd: temp.path });
    const wheel = `crm_sandbox_sdk-${version}-py3-none-any.whl`;
    const listing = await run(join(temp.path, 'venv', 'bin', 'python'), ['-m', 'zipfile', '-l', join(out, wheel)], { cwd: temp.path });
    expect(listing.stdout).toContain('crm/py.typed');
    expect(listing.stdout).toContain('crm/_resources.py');
    expect(listing.stdout).not.toContain('tests/');
  }, 60_000);
});

describe('the PHP SDK, installed with Composer from a path repository', () => {
  const manifest = JSON.parse(readFileSync(join(SDKS, 'php', 'composer.json'), 'utf8')) as { name: string; version: string; require: Record<string, string> };

  it('declares PSR-4 autoloading and PHP >= 8.2', () => {
    expect(manifest).toMatchObject({ autoload: { 'psr-4': { 'Crm\\': 'src/' } }, require: { php: '>=8.2' } });
  });

  it('composer install into a fresh project, then the quick start through vendor/autoload.php', async () => {
    const dir = project('php-project');
    const composerJson = {
      require: { [manifest.name]: `^${manifest.version}` },
      repositories: [{ type: 'path', url: join(SDKS, 'php'), options: { symlink: false } }, { 'packagist.org': false }],
    };
    writeFileSync(join(dir, 'composer.json'), JSON.stringify(composerJson, null, 2));
    const env = { COMPOSER_HOME: join(temp.path, 'composer-home'), COMPOSER_ALLOW_SUPERUSER: '1', COMPOSER_DISABLE_NETWORK: '1', COMPOSER_NO_INTERACTION: '1' };
    await run('composer', ['install', '--no-progress'], { cwd: dir, env });
    writeFileSync(join(dir, 'hello.php'), readmeBlock(readme('php'), 'hello.php'));
    await expectQuickStart(
      () => run('php', ['hello.php'], { cwd: dir, env: sandboxEnv() }),
      new RegExp(`^crm-sdk-php/${escaped(manifest.version)} \\(php 8\\.`),
    );
  }, 60_000);
});

describe('the Go SDK, used from a fresh module through replace, with GOPROXY=off', () => {
  const module = /^module (\S+)$/m.exec(readFileSync(join(SDKS, 'go', 'go.mod'), 'utf8'))![1]!;
  const version = /^const Version = "([^"]+)"/m.exec(readFileSync(join(SDKS, 'go', 'client.go'), 'utf8'))![1]!;

  it('has a full module path, the one the README tells `go get`', () => {
    expect(module).toMatch(/^github\.com\/[\w-]+\/[\w-]+\/sdks\/go$/);
    expect(readme('go')).toContain(`go get ${module}@latest`);
  });

  it('builds and runs the README quick start in a fresh module', async () => {
    const dir = project('go-project');
    const env = { GOPROXY: 'off', GOFLAGS: '-mod=mod', GOWORK: 'off' };
    await run('go', ['mod', 'init', 'hello'], { cwd: dir, env });
    await run('go', ['mod', 'edit', `-require=${module}@v${version}`, `-replace=${module}=${join(SDKS, 'go')}`], { cwd: dir, env });
    writeFileSync(join(dir, 'hello.go'), readmeBlock(readme('go'), 'hello.go'));
    await run('go', ['mod', 'tidy'], { cwd: dir, env });
    await expectQuickStart(
      () => run('go', ['run', '.'], { cwd: dir, env: { ...env, ...sandboxEnv() } }),
      new RegExp(`^crm-sdk-go/${escaped(version)} \\(go1\\.`),
    );
  }, 120_000);
});
