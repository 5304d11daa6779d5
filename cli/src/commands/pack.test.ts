import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectPackage, verifyPackageSignature } from '@svc/pack-sdk';
import { suiteHome, svcProcess } from '../testing/run-cli.js';

describe('svc pack: new, validate, test, build, exec, stats (no platform)', () => {
  const home = suiteHome();
  const run = home.run;

  it.each(['basic', 'advanced', 'full'])('makes a %s pack that passes validate --strict and its own tests', async (template) => {
    const made = await run(['pack', 'new', `${template}-pack`, '--template', template, '--namespace', 'ada', '--author', 'Ada L.']);
    expect(made.code, made.stdout).toBe(0);
    const dir = made.json().data.path;
    const checked = await run(['pack', 'validate', '--strict'], dir);
    expect(checked.code, checked.stdout).toBe(0);
    expect(checked.json().data).toMatchObject({ valid: true, strict: true, warnings: [] });
    const tested = await run(['pack', 'test'], dir);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.json().data.pass).toBeGreaterThan(0);
    expect(tested.json().data.fail).toBe(0);
  });

  it('refuses a folder that is not empty and a name that is not kebab-case', async () => {
    expect((await run(['pack', 'new', 'basic-pack', '--namespace', 'ada'])).json().error.code).toBe('ALREADY_EXISTS');
    const bad = await run(['pack', 'new', 'Bad_Name', '--namespace', 'ada']);
    expect([bad.code, bad.json().error.code]).toEqual([3, 'NAME_INVALID']);
  });

  it("reports every problem the registry would, and --fix repairs what it can", async () => {
    const dir = (await run(['pack', 'new', 'broken', '--namespace', 'ada'])).json().data.path;
    const manifest = await readFile(join(dir, 'pack.yaml'), 'utf8');
    await writeFile(join(dir, 'pack.yaml'), manifest.replace('namespace: ada', 'namespace: "@ada"').replace('version: 0.1.0', 'version: "1.2"').replace('entry: commands/hello.js', 'entry: ./commands/hello.js').replace('timeout: 10', 'timeout: 90\n    queue: fast'));
    const failed = await run(['pack', 'validate'], dir);
    expect(failed.code).toBe(3);
    expect(failed.json().error.code).toBe('MANIFEST_INVALID');
    expect(failed.json().error.details.issues.map((issue: { field: string }) => issue.field)).toEqual(expect.arrayContaining(['pack.namespace', 'pack.version']));
    const fixed = await run(['pack', 'validate', '--fix'], dir);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(fixed.json().data.fixed.map((fix: { field: string }) => fix.field)).toEqual(['pack.namespace', 'pack.version', 'commands.0.entry', 'commands.0.queue']);
    const repaired = await readFile(join(dir, 'pack.yaml'), 'utf8');
    expect(repaired).toContain('# The pack\'s manifest');
    expect(repaired).toMatch(/version: "?1\.2\.0"?/);
    expect(repaired).toContain('queue: medium');
  });

  it('finds an entry missing from the package, as the registry does', async () => {
    const dir = (await run(['pack', 'new', 'no-entry', '--namespace', 'ada'])).json().data.path;
    await writeFile(join(dir, '.svcignore'), 'commands/\n');
    const failed = await run(['pack', 'validate'], dir);
    expect([failed.code, failed.json().error.code]).toEqual([3, 'ENTRY_MISSING']);
  });

  it('reports the manifest\'s problems and the missing entries at once, in validate and in publish', async () => {
    const dir = (await run(['pack', 'new', 'gaps', '--namespace', 'ada'])).json().data.path;
    const manifest = await readFile(join(dir, 'pack.yaml'), 'utf8');
    await writeFile(join(dir, 'pack.yaml'), manifest.replace('namespace: ada', 'namespace: "@ada"').replace('version: 0.1.0', 'version: "1.2"'));
    await writeFile(join(dir, '.svcignore'), 'commands/\n');
    const expected = ['MANIFEST_INVALID pack.namespace', 'MANIFEST_INVALID pack.version', 'ENTRY_MISSING commands.0.entry'];
    for (const args of [['pack', 'validate'], ['pack', 'publish', '--dry-run']]) {
      const failed = await run(args, dir);
      expect(failed.code, failed.stdout).toBe(3);
      const issues = failed.json().error.details.issues as Array<{ code: string; field: string }>;
      expect(issues.map((issue) => `${issue.code} ${issue.field}`)).toEqual(expect.arrayContaining(expected));
      expect(failed.json().error.message).toMatch(/has 3 problems:\n.*pack\.namespace.*\n.*pack\.version.*\n.*commands\.0\.entry/);
    }
  });

  it('builds a tar.gz the registry accepts, signed with an Ed25519 key it can verify', async () => {
    const dir = join(home.dir, 'basic-pack');
    const built = await run(['pack', 'build', '--sign'], dir);
    expect(built.code, built.stdout).toBe(0);
    const data = built.json().data;
    expect(data.package).toBe(join(dir, 'dist', 'ada-basic-pack-0.1.0.tar.gz'));
    const tarball = await readFile(data.package);
    const { manifest, files } = await inspectPackage(tarball);
    expect(manifest.pack).toMatchObject({ namespace: 'ada', name: 'basic-pack', version: '0.1.0' });
    expect([...files.keys()].sort()).toEqual(['README.md', 'commands/hello.js', 'pack.yaml', 'package.json']);
    const signature = JSON.parse(await readFile(`${data.package}.sig`, 'utf8'));
    expect(verifyPackageSignature(tarball, signature)).toBe(data.signature.key_fingerprint);
    const key = await readFile(join(home.dir, 'config', 'svc', 'signing-key.pem'), 'utf8');
    expect(key).toContain('PRIVATE KEY');
    const wheel = await run(['pack', 'build', '--format', 'wheel'], dir);
    expect([wheel.code, wheel.json().error.code]).toEqual([1, 'FORMAT_UNSUPPORTED']);
  });

  it('publish --dry-run checks the package file without a platform and uploads nothing', async () => {
    const dir = join(home.dir, 'basic-pack');
    const dry = await run(['pack', 'publish', 'dist/ada-basic-pack-0.1.0.tar.gz', '--dry-run'], dir);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.json().data).toMatchObject({ dry_run: true, pack: { namespace: 'ada', name: 'basic-pack', version: '0.1.0', commands: ['basic-pack-hello'] }, namespace: null });
    expect(dry.json().data.pack.signature.key_fingerprint).toMatch(/^SHA256:/);
  });

  it('makes a Python pack that passes validate --strict, its unittest tests, and runs in the platform runner', async () => {
    const made = await run(['pack', 'new', 'py-pack', '--python', '--namespace', 'ada']);
    expect(made.code, made.stdout).toBe(0);
    expect(made.json().data).toMatchObject({ runtime: 'python', python: '3.11' });
    const dir = made.json().data.path;
    expect(await readFile(join(dir, 'pack.yaml'), 'utf8')).toContain('runtime: python\n');
    expect(await readFile(join(dir, 'py_pack', 'hello.py'), 'utf8')).toContain('def run(input, ctx):');
    const checked = await run(['pack', 'validate', '--strict'], dir);
    expect(checked.code, checked.stdout).toBe(0);
    // pytest where the interpreter has it, unittest where it does not (Debian's python3 here).
    const pythons: Array<Record<string, string>> = [{}, ...(spawnSync('/usr/bin/python3', ['-c', 'import pytest']).status === 1 ? [{ SVC_PYTHON: '/usr/bin/python3' }] : [])];
    await writeFile(join(dir, 'tests', 'test_broken.py'), 'import unittest\n\nclass Broken(unittest.TestCase):\n    def test_fails(self):\n        self.assertEqual(1, 2)\n');
    for (const python of pythons) {
      const testing = (args: string[]) => svcProcess([...args, '-o', 'json'], { cwd: dir, env: { ...home.env, ...python } });
      const tested = await testing(['pack', 'test', 'tests/test_hello.py']);
      expect(tested.code, tested.stdout + tested.stderr).toBe(0);
      expect(tested.json().data).toMatchObject({ passed: true, tests: 2, pass: 2, fail: 0 });
      const failing = await testing(['pack', 'test']);
      expect([failing.code, failing.json().error.code, failing.json().error.details.fail, failing.json().error.details.tests]).toEqual([10, 'TESTS_FAILED', 1, 3]);
    }
    expect(pythons.length).toBe(2);

    const ran = await run(['pack', 'exec', 'ada/hello', '--arg', 'name=Ada'], dir);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.json().data.result).toEqual({ message: 'Hello, Ada!', greetings: 1 });
    expect((await run(['pack', 'exec', 'ada/hello', '--arg', 'name=Ada'], dir)).json().data.result.greetings).toBe(2);
    await writeFile(join(dir, 'py_pack', 'hello.py'), 'class NoGreeting(Exception):\n    pass\n\n\ndef run(input, ctx):\n    raise NoGreeting("not today")\n');
    const failed = await run(['pack', 'exec', 'ada/hello', '--arg', 'name=Ada'], dir);
    expect([failed.code, failed.json().error.details.type]).toEqual([10, 'NoGreeting']);
  }, 120_000);

  it('builds a Python pack as a wheel by default, as a tar.gz, or both, each one the registry accepts', async () => {
    const dir = join(home.dir, 'py-pack');
    const wheel = await run(['pack', 'build'], dir);
    expect(wheel.code, wheel.stdout).toBe(0);
    expect(wheel.json().data).toMatchObject({ format: 'wheel', package: join(dir, 'dist', 'svc_ada_py_pack-0.1.0-py3-none-any.whl') });
    const both = await run(['pack', 'build', '--format', 'both'], dir);
    expect(both.json().data.packages.map((p: { format: string; package: string }) => [p.format, p.package])).toEqual([
      ['wheel', join(dir, 'dist', 'svc_ada_py_pack-0.1.0-py3-none-any.whl')],
      ['tar.gz', join(dir, 'dist', 'ada-py-pack-0.1.0.tar.gz')],
    ]);
    for (const { package: path } of both.json().data.packages) {
      const { manifest, files } = await inspectPackage(await readFile(path));
      expect(manifest).toMatchObject({ runtime: 'python', python: '>=3.11' });
      expect([...files.keys()].sort()).toEqual(['README.md', 'pack.yaml', 'py_pack/__init__.py', 'py_pack/hello.py']);
    }
    const dry = await run(['pack', 'publish', 'dist/svc_ada_py_pack-0.1.0-py3-none-any.whl', '--dry-run'], dir);
    expect([dry.code, dry.json().data.pack.name]).toEqual([0, 'py-pack']);
  });

  it('exec runs a command in the platform runner and counts it in stats; a command that throws is exit code 10', async () => {
    const dir = join(home.dir, 'advanced-pack');
    const ran = await run(['pack', 'exec', 'ada/advanced-pack-notes', '--arg', 'action=add', '--arg', 'topic=ideas', '--arg', 'text=looms'], dir);
    expect(ran.code, ran.stdout).toBe(0);
    expect(ran.json().data.result).toEqual({ topic: 'ideas', count: 1 });
    // ctx.storage of local runs is kept in .svc/dev-storage.json.
    expect((await run(['pack', 'exec', 'ada/advanced-pack-notes', '--arg', 'action=list', '--arg', 'topic=ideas'], dir)).json().data.result).toEqual({ topic: 'ideas', items: ['looms'] });
    const invalid = await run(['pack', 'exec', 'ada/advanced-pack-notes', '--arg', 'action=burn', '--arg', 'topic=x'], dir);
    expect([invalid.code, invalid.json().error.code]).toEqual([3, 'VALIDATION_FAILED']);

    await writeFile(join(dir, 'commands', 'hello.js'), "export default async () => { throw new RangeError('no greeting today'); };\n");
    const failed = await run(['pack', 'exec', 'ada/advanced-pack-hello', '--arg', 'name=Ada'], dir);
    expect(failed.code).toBe(10);
    expect(failed.json().error).toMatchObject({ kind: 'command', exit_code: 10, details: { type: 'RangeError' } });
    expect(failed.json().error.message).toContain('no greeting today');

    const stats = (await run(['stats'], dir)).json().data.commands;
    expect(stats.map((c: { command: string; runs: number; failures: number }) => [c.command, c.runs, c.failures])).toEqual([
      ['ada/advanced-pack-hello', 1, 1],
      ['ada/advanced-pack-notes', 2, 0],
    ]);
    expect(stats[1]).toMatchObject({ queue: 'fast' });
    expect(stats[1].p95_ms).toBeGreaterThanOrEqual(stats[1].p50_ms);
    expect((await run(['stats', '--reset'], dir)).code).toBe(0);
    expect((await run(['stats'], dir)).json().data.commands).toEqual([]);
  });

  it('hands local runs the declared secrets found in .svc/secrets.json', async () => {
    const dir = join(home.dir, 'full-pack');
    const before = await run(['pack', 'exec', 'ada/full-pack-check-secret', '--arg', 'name=API_TOKEN'], dir);
    expect(before.json().data.result).toEqual({ name: 'API_TOKEN', present: false, length: 0 });
    await mkdir(join(dir, '.svc'), { recursive: true });
    await writeFile(join(dir, '.svc', 'secrets.json'), JSON.stringify({ API_TOKEN: 'local-token', UNDECLARED: 'not handed' }));
    const after = await run(['pack', 'exec', 'ada/full-pack-check-secret', '--arg', 'name=API_TOKEN'], dir);
    expect(after.json().data.result).toEqual({ name: 'API_TOKEN', present: true, length: 'local-token'.length });
    expect((await run(['pack', 'exec', 'ada/full-pack-check-secret', '--arg', 'name=UNDECLARED'], dir)).json().data.result.present).toBe(false);
  });

  it('lists and describes the commands of the pack in the folder', async () => {
    const dir = join(home.dir, 'advanced-pack');
    const listed = (await run(['pack', 'list-commands'], dir)).json().data.commands;
    expect(listed.map((c: { name: string; queue: string }) => `${c.name}:${c.queue}`)).toEqual(['advanced-pack-hello:fast', 'advanced-pack-notes:fast', 'advanced-pack-report:medium']);
    const described = (await run(['pack', 'describe', 'advanced-pack-report'], dir)).json().data;
    expect(described).toMatchObject({ source: 'local', name: 'advanced-pack-report', timeout: 120, input_schema: { required: ['text'] } });
  });
});
