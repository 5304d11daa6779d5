import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleExports } from '../dashboard/build.js';
import { startDashboardDev } from '../dashboard/dev-server.js';
import { listen } from '../dev/dev-server.js';
import { suiteHome } from '../testing/run-cli.js';

describe('svc dashboard: new, build, validate, dev (no platform)', () => {
  const home = suiteHome();
  const run = home.run;

  it.each(['basic', 'full'])('builds the %s template into one self-contained dist/main.js exporting mount and unmount, which validates', async (template) => {
    const dir = (await run(['dashboard', 'new', `${template}-board`, '--template', template, '--namespace', 'ada'])).json().data.path;
    const built = await run(['dashboard', 'build'], dir);
    expect(built.code, built.stdout).toBe(0);
    expect(built.json().data).toMatchObject({ path: join(dir, 'dist', 'main.js'), minify: true, sourcemap: false });
    const code = await readFile(join(dir, 'dist', 'main.js'), 'utf8');
    // Self-contained: no import of anything left, its CSS inlined.
    expect(code).not.toMatch(/\bimport\s*[({'"a-zA-Z]/);
    expect(await moduleExports(join(dir, 'dist', 'main.js'))).toEqual(expect.arrayContaining(['mount', 'unmount']));
    if (template === 'full') expect(code).toContain('.dash');
    const checked = await run(['dashboard', 'validate'], dir);
    expect(checked.code, checked.stdout).toBe(0);
    expect(checked.json().data).toMatchObject({ valid: true, name: `${template}-board`, version: '0.1.0', files: 1 });
  });

  it('inlines a source map only when asked, and minifies unless told not to', async () => {
    const dir = join(home.dir, 'basic-board');
    await run(['dashboard', 'build', '--sourcemap', '--no-minify'], dir);
    const code = await readFile(join(dir, 'dist', 'main.js'), 'utf8');
    expect(code).toContain('sourceMappingURL=data:application/json');
    expect(code).toContain('export {');
  });

  it('refuses a build whose module does not export unmount', async () => {
    const dir = join(home.dir, 'full-board');
    const main = await readFile(join(dir, 'src', 'main.js'), 'utf8');
    await writeFile(join(dir, 'src', 'main.js'), main.replace('export function unmount', 'function unmount'));
    const failed = await run(['dashboard', 'build'], dir);
    expect([failed.code, failed.json().error.code, failed.json().error.details.missing]).toEqual([3, 'EXPORTS_MISSING', ['unmount']]);
    await writeFile(join(dir, 'src', 'main.js'), main);
  });

  it('lists every manifest problem the spec names, and a missing dist/main.js', async () => {
    const dir = (await run(['dashboard', 'new', 'checked-board', '--namespace', 'ada'])).json().data.path;
    const missing = await run(['dashboard', 'validate'], dir);
    expect([missing.code, missing.json().error.code]).toEqual([3, 'ENTRY_MISSING']);
    await writeFile(join(dir, 'dashboard.json'), JSON.stringify({ name: 'No', namespace: 'ada', version: '1.0', description: 'x'.repeat(201), min_sdk_version: 'soon' }));
    const failed = await run(['dashboard', 'validate'], dir);
    expect(failed.code).toBe(3);
    const fields = failed.json().error.details.issues.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(['name', 'version', 'description', 'min_sdk_version']);
    const noName = await run(['dashboard', 'new', 'ab', '--namespace', 'ada']);
    expect([noName.code, noName.json().error.code]).toEqual([3, 'NAME_INVALID']);
  });

  it('says clearly that the tailwind template needs its own npm install', async () => {
    const dir = (await run(['dashboard', 'new', 'wind-board', '--template', 'tailwind', '--namespace', 'ada'])).json().data.path;
    const failed = await run(['dashboard', 'build'], dir);
    expect(failed.code).toBe(3);
    expect(failed.json().error.message).toContain('run `npm install` there');
  });

  it('dev serves a host page and the module, rebuilds on change, and forwards /api with the token', async () => {
    const dir = join(home.dir, 'basic-board');
    const seen: Array<{ url?: string; authorization?: string }> = [];
    const platform = createServer((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { packs: [] } }));
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const { server, build } = await startDashboardDev({
      dir,
      manifest: { name: 'basic-board', namespace: 'ada', version: '0.1.0' },
      apiUrl: `http://127.0.0.1:${(platform.address() as AddressInfo).port}`,
      token: 'the-token',
      log: (line) => lines.push(line),
    });
    try {
      const { port } = await listen(server, 0, '127.0.0.1');
      const base = `http://127.0.0.1:${port}`;
      expect(await (await fetch(`${base}/`)).text()).toContain("import('/main.js?v=' + version)");
      expect(await (await fetch(`${base}/main.js`)).text()).toContain('Which packs are installed?');
      const main = await readFile(join(dir, 'src', 'main.js'), 'utf8');
      await writeFile(join(dir, 'src', 'main.js'), main.replace('Which packs are installed?', 'Packs, please'));
      await expect.poll(async () => (await fetch(`${base}/main.js`)).text(), { timeout: 10_000 }).toContain('Packs, please');
      const forwarded = await fetch(`${base}/api/api/v1/packs`);
      expect(await forwarded.json()).toEqual({ data: { packs: [] } });
      expect(seen).toEqual([{ url: '/api/v1/packs', authorization: 'Bearer the-token' }]);
    } finally {
      await build.dispose();
      server.close();
      platform.close();
    }
  });
});
