import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('@svc/client as a package', () => {
  it('bundles for a browser without any Node built-in', async () => {
    const result = await build({ entryPoints: [`${PACKAGE_DIR}src/index.ts`], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:') || /(^|\/)node_modules\/@types\/node\//.test(input))).toEqual([]);
    expect(inputs.some((input) => input.includes('openapi-fetch'))).toBe(true);
  });

  it('packs with npm pack: the built ES modules, their types and the README, no tests or sources', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE_DIR });
    const files = (JSON.parse(stdout)[0].files as Array<{ path: string }>).map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']));
    expect(files.filter((f) => f.startsWith('src/') || f.includes('.test.') || f.startsWith('scripts/'))).toEqual([]);
  }, 60_000);
});
