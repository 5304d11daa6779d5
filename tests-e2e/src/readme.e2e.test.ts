import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '@svc/testing';
import { startStandalone } from './support/standalone.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** The block of the quick start that follows `marker`, as a reader copies it. */
function blockAfter(marker: string): string {
  const start = README.indexOf(marker);
  expect(start, `README has "${marker}"`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start));
  expect(block, `a sh block follows "${marker}"`).not.toBeNull();
  return block![1]!;
}

/** The operator account the README starts the platform with (`SVC_ADMIN_EMAIL=… SVC_ADMIN_PASSWORD='…' npm start`). */
function operatorOf(block: string): { email: string; password: string } {
  const found = /SVC_ADMIN_EMAIL=(\S+) SVC_ADMIN_PASSWORD='([^']+)' npm start/.exec(block);
  expect(found, 'the README starts the platform with an operator account').not.toBeNull();
  return { email: found![1]!, password: found![2]! };
}

describe("the root README's curl walk-through", () => {
  const dataDir = makeDataDir('svc-readme-');
  const workDir = mkdtempSync(join(tmpdir(), 'svc-readme-curl-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('runs as written against a platform started as the README starts it: every request answered 2xx', async () => {
    const operator = operatorOf(blockAfter('To mint the'));
    const walkThrough = blockAfter('Then, with curl only');
    const started = await startStandalone(dataDir, operator);
    children.push(started.child);
    const port = new URL(started.url).port;
    // The README's platform listens on 8080; this one on a port of its own. Any curl that is not
    // answered 2xx stops the script (and with it the test), its answer printed.
    const script = `set -euo pipefail
curl() { command curl --fail-with-body "$@"; }
${walkThrough.replaceAll('http://localhost:8080', `http://localhost:${port}`)}`;
    const ran = spawnSync('bash', ['-c', script], { cwd: workDir, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH } });
    expect(ran.status, `stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`).toBe(0);
    expect(ran.stdout).toContain('"status":"healthy"');
    expect(ran.stdout).toContain('"openapi":"3.');
  }, 120_000);
});
