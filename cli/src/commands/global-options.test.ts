import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, SVC_BIN, suiteHome, svcProcess, waitForText } from '../testing/run-cli.js';

/** A platform that knows one pack of ada's, and records what it was asked. */
async function fakePlatform(): Promise<{ url: string; server: Server; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/health') return res.end(JSON.stringify({ status: 'healthy', version: '0.1.0', services: {}, timestamp: new Date().toISOString() }));
    res.end(JSON.stringify({ data: { packs: [{ id: '00000000-0000-4000-8000-000000000000', name: 'tools', namespace: 'ada', version: '1.0.0', visibility: 'private', commands: 1, installed_at: new Date().toISOString(), status: 'active' }] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, asked };
}

/** The built `svc` on a terminal of its own (util-linux `script` gives it a pseudo-terminal), answering `answer` when `prompt` appears. */
function onTerminal(args: string[], env: Record<string, string>, cwd: string, prompt: string, answer: string): Promise<{ code: number; output: string }> {
  const command = [process.execPath, SVC_BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  void waitForText(() => output, prompt, 20_000).then(
    () => child.stdin.write(answer),
    () => child.kill(),
  );
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, output })));
}

describe('global options and pack test --filter, through the built svc', () => {
  const home = suiteHome();
  let platform: Awaited<ReturnType<typeof fakePlatform>>;
  const built = (args: string[], cwd = home.dir, env: Record<string, string> = {}) => svcProcess(args, { cwd, env: { ...home.env, ...env } });

  beforeAll(async () => {
    requireBuiltCli();
    platform = await fakePlatform();
  });
  afterAll(() => platform?.server.close());

  it('-q keeps the notes off stderr, and the result and the fixes happen as without it', async () => {
    const made = (await home.run(['pack', 'new', 'quiet-pack', '--namespace', 'ada'])).json().data.path as string;
    const manifest = await readFile(join(made, 'pack.yaml'), 'utf8');
    const breakIt = () => writeFile(join(made, 'pack.yaml'), manifest.replace('version: 0.1.0', 'version: "1.2"'));
    await breakIt();
    const noisy = await built(['pack', 'validate', '--fix'], made);
    expect([noisy.code, noisy.stderr]).toEqual([0, 'fixed pack.version: "1.2" → "1.2.0"\n']);
    await breakIt();
    const quiet = await built(['-q', 'pack', 'validate', '--fix'], made);
    expect([quiet.code, quiet.stderr]).toEqual([0, '']);
    expect(quiet.stdout).toBe(noisy.stdout);
    expect(await readFile(join(made, 'pack.yaml'), 'utf8')).toContain('version: "1.2.0"');
  });

  it('-v shows each request and its answer on stderr, leaving stdout as it is', async () => {
    const env = { SVC_REGISTRY_URL: platform.url, SVC_TOKEN: 'sk-svc-' + 'f'.repeat(64) };
    const plain = await built(['list'], home.dir, env);
    const verbose = await built(['list', '-v'], home.dir, env);
    expect([plain.code, verbose.code]).toEqual([0, 0]);
    expect(verbose.stdout).toBe(plain.stdout);
    expect(plain.stderr).toBe('');
    expect(verbose.stderr).toContain('→ GET /api/v1/packs');
    expect(verbose.stderr).toContain('← 200 GET /api/v1/packs');
  });

  it('asks on a terminal before uninstalling, and --non-interactive refuses to ask there', async () => {
    const env = { ...home.env, SVC_REGISTRY_URL: platform.url, SVC_TOKEN: 'sk-svc-' + 'f'.repeat(64) };
    const asked = await onTerminal(['uninstall', '@ada/tools'], env, home.dir, '[y/N]', 'n\n');
    expect(asked.output).toContain('Remove @ada/tools with all its versions, commands and grants? [y/N]');
    expect(asked.code).toBe(1);
    expect(asked.output).toContain('Not uninstalled');
    const refused = await onTerminal(['uninstall', '@ada/tools', '--non-interactive'], env, home.dir, '[y/N]', 'y\n');
    expect(refused.code).toBe(3);
    expect(refused.output).not.toContain('[y/N]');
    expect(refused.output).toMatch(/Not asking .* add --force to go ahead/);
    expect(platform.asked.filter((line) => line.startsWith('DELETE'))).toEqual([]);
  });

  it('pack test --filter runs only the tests whose name matches', async () => {
    const made = (await home.run(['pack', 'new', 'filtered', '--namespace', 'ada'])).json().data.path as string;
    await writeFile(join(made, 'tests', 'broken.test.js'), "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('a broken promise', () => assert.fail('broken on purpose'));\n");
    const all = await built(['pack', 'test', '-o', 'json'], made);
    expect([all.code, all.json().error.code]).toEqual([10, 'TESTS_FAILED']);
    const filtered = await built(['pack', 'test', '--filter', 'greets', '-o', 'json'], made);
    expect(filtered.code, filtered.stdout + filtered.stderr).toBe(0);
    expect(filtered.json().data).toMatchObject({ passed: true, pass: 1, fail: 0 });
    const none = await built(['pack', 'test', '--filter', 'broken promise', '-o', 'json'], made);
    expect([none.code, none.json().error.details]).toEqual([10, expect.objectContaining({ pass: 0, fail: 1 })]);
  });
});
