import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@svc/testing';
import { scratchHome, spawnSvc, svc, waitForText, type SpawnedCli } from '../testing/run-cli.js';

describe('svc pack dev: the local server, offline', () => {
  let home: Awaited<ReturnType<typeof scratchHome>>;
  let dir: string;
  let dev: SpawnedCli;
  let base: string;
  let docsBase: string;
  let stderr = '';

  beforeAll(async () => {
    home = await scratchHome();
    dir = (await svc(['pack', 'new', 'dev-pack', '--template', 'advanced', '--namespace', 'ada', '-o', 'json'], { cwd: home.dir, env: home.env })).json().data.path;
    const [port, docsPort] = [await freePort(), await freePort()];
    base = `http://localhost:${port}`;
    docsBase = `http://localhost:${docsPort}`;
    // A token and a platform out of reach: pack dev says so and serves offline.
    const env = { ...home.env, SVC_TOKEN: 'sk-svc-' + 'e'.repeat(64), SVC_REGISTRY_URL: 'http://127.0.0.1:9' };
    dev = spawnSvc(['pack', 'dev', '--port', String(port), '--docs-port', String(docsPort), '--persist', '--log-level', 'info'], { cwd: dir, env });
    dev.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForText(() => stderr, 'Serving @ada/dev-pack 0.1.0');
  });
  afterAll(async () => {
    dev?.child.kill('SIGKILL');
    await home?.remove();
  });

  const post = (name: string, body: unknown) => fetch(`${base}/api/v1/commands/ada/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('serves /health, /docs (also on --docs-port) and the command list as the platform does', async () => {
    expect(stderr).toContain('going on offline');
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ status: 'healthy', pack: { namespace: 'ada', name: 'dev-pack', version: '0.1.0' } });
    for (const url of [`${base}/docs`, `${docsBase}/docs`]) {
      const page = await fetch(url);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('/api/v1/commands/ada/dev-pack-notes');
    }
    const list = ((await (await fetch(`${base}/api/v1/commands`)).json()) as any).data;
    expect(list.commands.map((c: { name: string }) => c.name)).toEqual(['dev-pack-hello', 'dev-pack-notes', 'dev-pack-report']);
  });

  it('runs commands in the runner with the platform\'s answers: result, 400 for bad input, 404, 502 for a throw', async () => {
    const ok = await post('dev-pack-hello', { name: 'Ada' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).data).toMatchObject({ result: { greeting: 'Hello, Ada!' }, execution: { status: 'completed' } });
    const bad = await post('dev-pack-hello', { name: 7 });
    expect([bad.status, ((await bad.json()) as any).error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const missing = await post('nope', {});
    expect([missing.status, ((await missing.json()) as any).error.code]).toEqual([404, 'NOT_FOUND']);
    expect(((await (await post('dev-pack-notes', { action: 'add', topic: 't', text: 'kept' })).json()) as any).data.result).toEqual({ topic: 't', count: 1 });
    expect(JSON.parse(await readFile(join(dir, '.svc', 'dev-storage.json'), 'utf8'))).toHaveProperty(['notes:t', 'value'], { items: ['kept'] });
  });

  it('reloads when a file changes: a run in flight ends on the code it was made to, the next runs the new; a throw answers 502 and is counted in stats', async () => {
    const hello = join(dir, 'commands', 'hello.js');
    const reloads = () => stderr.split('reloaded @ada/dev-pack').length - 1;
    let before = reloads();
    await writeFile(hello, "export default async ({ name }) => { await new Promise((r) => setTimeout(r, 1500)); return { greeting: `Slowly, ${name}` }; };\n");
    await expect.poll(reloads, { timeout: 10_000 }).toBeGreaterThan(before);
    const slow = post('dev-pack-hello', { name: 'Ada' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    before = reloads();
    await writeFile(hello, "export default async () => { throw new TypeError('changed and broken'); };\n");
    await expect.poll(reloads, { timeout: 10_000 }).toBeGreaterThan(before);
    const answered = await slow;
    expect([answered.status, ((await answered.json()) as any).data?.result]).toEqual([200, { greeting: 'Slowly, Ada' }]);
    const failed = await post('dev-pack-hello', { name: 'Ada' });
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as any).error).toMatchObject({ code: 'COMMAND_FAILED', details: { type: 'TypeError' } });
    const stats = (await svc(['stats', '-o', 'json'], { cwd: dir, env: home.env })).json().data.commands;
    expect(stats.find((c: { command: string }) => c.command === 'ada/dev-pack-hello')).toMatchObject({ runs: 3, failures: 1 });
  });

  it('stops on SIGINT with exit code 130', async () => {
    dev.child.kill('SIGINT');
    const ended = await dev.done;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain('error: Interrupted');
  });
});
