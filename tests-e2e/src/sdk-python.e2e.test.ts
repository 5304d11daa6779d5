import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '@svc/testing';
import { adminToken, signUp, type TestUser } from './support/accounts.js';
import { client } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { firstCodeBlock, sdkTestPackage } from './support/sdk.js';

const exec = promisify(execFile);
const SDK_DIR = fileURLToPath(new URL('../../sdk/python/', import.meta.url));
const ACCESS_TTL_SECONDS = 8;

/**
 * A Python that can build the wheel offline: setuptools' backend, plus the `wheel` package
 * while setuptools is older than 70.1. Debian's has both; pyenv's 3.11 lacks `wheel`.
 */
async function buildingPython(): Promise<string> {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = await exec(python, ['-c', 'import setuptools.build_meta, wheel']).then(() => true, () => false);
    if (probe) return python;
  }
  throw new Error('no python3 with setuptools and wheel (Debian: apt-get install python3-setuptools python3-wheel)');
}

describe.each(oneMode('embedded'))('svc-client for Python against the platform (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let ada: TestUser;
  let work: string;
  let python: string;
  let env: NodeJS.ProcessEnv;
  const built: string[] = [];

  beforeAll(async () => {
    fleet = await startTestFleet(mode, { accessTtlSeconds: ACCESS_TTL_SECONDS, commandGroupLimit: { points: 3, durationSeconds: 2 } });
    const call = client(fleet.url);
    ada = await signUp(call, await adminToken(call), { slug: 'ada' });
    work = makeDataDir(`svc-sdk-py-${randomBytes(4).toString('hex')}-`);
    await writeFile(join(work, 'tools.tar.gz'), await sdkTestPackage('ada'));
    // The method list is checked against the document the running platform serves.
    await writeFile(join(work, 'openapi.json'), await (await fetch(`${fleet.url}/openapi.json`)).text());
    // Built from a copy, so that the build's own folders never land in the source tree.
    await cp(SDK_DIR, join(work, 'src'), { recursive: true, filter: (path) => !/(__pycache__|\.egg-info|\/build|\/dist)$/.test(path) });
    const { stdout } = await exec(await buildingPython(), [join(work, 'src', 'build.py'), join(work, 'dist')]);
    built.push(...stdout.trim().split('\n'));
    await exec('python3', ['-m', 'venv', join(work, 'venv')]);
    python = join(work, 'venv', 'bin', 'python');
    await exec(python, ['-m', 'pip', 'install', '--quiet', '--no-index', built.find((f) => f.endsWith('.whl'))!]);
    env = {
      ...process.env,
      SVC_TEST_URL: fleet.url,
      SVC_TEST_EMAIL: ada.email,
      SVC_TEST_PASSWORD: ada.password,
      SVC_TEST_NAMESPACE: 'ada',
      SVC_TEST_PACKAGE: join(work, 'tools.tar.gz'),
      SVC_TEST_ACCESS_TTL: String(ACCESS_TTL_SECONDS),
      SVC_OPENAPI_JSON: join(work, 'openapi.json'),
    };
    // A platform, two builds and a virtual environment with pip: more than the usual hook time.
  }, 300_000);

  afterAll(async () => {
    await fleet?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Runs one of the package's unittest files with the installed wheel (not the source folder). */
  async function unittest(file: string): Promise<string> {
    const { stderr } = await exec(python, ['-m', 'unittest', 'discover', '-s', join(SDK_DIR, 'tests'), '-p', file, '-v'], { cwd: work, env, timeout: 120_000 }).catch((err) => {
      throw new Error(`${file} failed:\n${err.stderr}`);
    });
    return stderr;
  }

  it('builds an sdist and a wheel offline, and pip installs the wheel from the file alone', async () => {
    expect(built.map((f) => f.split('/').pop())).toEqual(['svc-client-0.1.0.tar.gz', 'svc_client-0.1.0-py3-none-any.whl']);
    expect(await readdir(join(work, 'dist'))).toHaveLength(2);
    const { stdout: sdist } = await exec('tar', ['tzf', built[0]!]);
    expect(sdist).toContain('svc-client-0.1.0/svc_client/_operations.py');
    const { stdout } = await exec(python, ['-c', 'import sys, svc_client; print(svc_client.__file__); print(sys.version_info >= (3, 10))'], { cwd: work });
    expect(stdout).toContain(join(work, 'venv'));
    expect(stdout).toContain('True');
  });

  it('passes its offline tests, the method list checked against /openapi.json', async () => {
    const output = await unittest('test_offline.py');
    expect(output).toMatch(/\nOK\n/);
    expect(output).not.toContain('skipped');
  });

  it('passes its tests against the platform: sign-in, runs, idempotency, cancel, storage, 429, renewal, webhooks, asyncio', async () => {
    const output = await unittest('test_platform.py');
    expect(output).toMatch(/Ran 8 tests/);
    expect(output).toMatch(/\nOK\n/);
    expect(output).not.toContain('skipped');
  }, 120_000);

  it("runs the README's quick start as written", async () => {
    const example = firstCodeBlock(await readFile(join(SDK_DIR, 'README.md'), 'utf8'), 'python');
    expect(example.trim().split('\n').length).toBeLessThanOrEqual(12);
    const file = join(work, 'readme_example.py');
    await writeFile(file, example);
    const { stdout } = await exec(python, [file], { cwd: work, env: { ...env, SVC_URL: fleet.url, SVC_EMAIL: ada.email, SVC_PASSWORD: ada.password } });
    expect(stdout).toContain("{'text': 'hello'}");
    expect(stdout).toContain("{'echoed': {'text': 'hi'}}");
  });
});
