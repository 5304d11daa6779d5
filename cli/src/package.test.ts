import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from './testing/run-cli.js';

const cliRoot = fileURLToPath(new URL('../', import.meta.url));

/** The packages a bundle imports, statically or dynamically, as esbuild reads them. */
async function importedPackages(file: string): Promise<string[]> {
  const { build } = await import('esbuild');
  const result = await build({ entryPoints: [file], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
  const names = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const { path, external } of input.imports) {
      if (!external || path.startsWith('node:') || builtinModules.includes(path)) continue;
      names.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);
    }
  }
  return [...names].sort();
}

/** Where the CLI's own copy of a dependency is (its version, not another package's), as Node would find it from cli/. */
function dependencyFolder(name: string): string {
  const own = join(cliRoot, 'node_modules', name);
  return existsSync(own) ? own : join(cliRoot, '..', 'node_modules', name);
}

describe('the CLI as npm pack makes it', () => {
  let dir: string;

  beforeAll(async () => {
    requireBuiltCli();
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-pack-'));
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: cliRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ filename: string }>;
    execFileSync('tar', ['xzf', join(dir, packed!.filename), '-C', dir]);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('holds the program, its bundle and the pack runner, and depends on registry packages only', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'package', 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ svc: './bin/svc.js' });
    const dependencies = Object.entries(manifest.dependencies as Record<string, string>);
    expect(dependencies.filter(([name, range]) => name.startsWith('@svc/') || range.startsWith('workspace:'))).toEqual([]);
    const imported = await importedPackages(join(dir, 'package', 'dist', 'main.js'));
    expect(imported.filter((name) => !(name in manifest.dependencies))).toEqual([]);
    await expect(readFile(join(dir, 'package', 'dist', 'runner', 'runner.mjs'), 'utf8')).resolves.toContain('Pack runner');
  });

  it('runs from the unpacked package with its own dependencies', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'package', 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies as Record<string, string>)) {
      await mkdir(dirname(join(dir, 'package', 'node_modules', name)), { recursive: true });
      await symlink(dependencyFolder(name), join(dir, 'package', 'node_modules', name));
    }
    const version = execFileSync(process.execPath, [join(dir, 'package', 'bin', 'svc.js'), '--version'], { encoding: 'utf8' });
    expect(version.trim()).toBe(JSON.parse(await readFile(join(cliRoot, 'package.json'), 'utf8')).version);
  });
});
