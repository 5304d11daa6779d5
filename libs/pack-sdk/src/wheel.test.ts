import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PackFormatError } from './errors.js';
import { parseManifest } from './manifest.js';
import { inspectPackage, readPackage } from './package.js';
import { createPackWheel, expandVendoredWheels, isZip, unfitVendoredWheels, wheelVersion } from './wheel.js';
import { DEFAULT_ARCHIVE_LIMITS } from './archive.js';

const MANIFEST = `schema_version: 1
pack: { namespace: acme, name: text-tools, version: 1.2.0, description: Text helpers, visibility: public }
runtime: python
python: ">=3.10"
commands:
  - name: echo
    entry: text_tools.echo:run
    input_schema: { type: object }
`;

const FILES = {
  'pack.yaml': MANIFEST,
  'text_tools/__init__.py': '',
  'text_tools/echo.py': 'def run(input, ctx):\n    return input\n',
};

function wheelOf(files: Record<string, string> = FILES) {
  return createPackWheel(files, parseManifest(files['pack.yaml']!));
}

async function failure(work: Promise<unknown>): Promise<PackFormatError> {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PackFormatError);
  return error as PackFormatError;
}

/** A zip of `entries` as given, for wheels made by hand (or by an attacker). */
function zipOf(entries: Record<string, string>): Buffer {
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(entries).map(([path, text]) => [path, Buffer.from(text)]))));
}

describe('wheels', () => {
  it('writes a pure-Python wheel: the pack files, and a dist-info with METADATA, WHEEL, RECORD hashes and pack.yaml', () => {
    const { fileName, wheel } = wheelOf();
    expect(fileName).toBe('svc_acme_text_tools-1.2.0-py3-none-any.whl');
    expect(isZip(wheel)).toBe(true);
    const entries = unzipSync(wheel);
    const distInfo = 'svc_acme_text_tools-1.2.0.dist-info';
    expect(Object.keys(entries).sort()).toEqual([
      `${distInfo}/METADATA`,
      `${distInfo}/RECORD`,
      `${distInfo}/WHEEL`,
      `${distInfo}/pack.yaml`,
      'text_tools/__init__.py',
      'text_tools/echo.py',
    ]);
    expect(strFromU8(entries[`${distInfo}/METADATA`]!)).toContain('Name: svc-acme-text-tools\nVersion: 1.2.0\nSummary: Text helpers\nRequires-Python: >=3.10\n');
    expect(strFromU8(entries[`${distInfo}/WHEEL`]!)).toContain('Root-Is-Purelib: true\nTag: py3-none-any\n');
    const echo = entries['text_tools/echo.py']!;
    const hash = createHash('sha256').update(echo).digest('base64url');
    expect(strFromU8(entries[`${distInfo}/RECORD`]!)).toContain(`text_tools/echo.py,sha256=${hash},${echo.length}\n`);
    expect(wheelOf().wheel.equals(wheel)).toBe(true);
  });

  // Debian's python3 with python3-venv (and its bundled pip): offline, as our machines are. A venv
  // and pip took 9-14 s on two cores a suite shares: more than vitest's 30 s on a slower machine.
  const venvPython = ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status === 0);
  it.runIf(venvPython)('installs with pip install --no-deps into a scratch venv, pack.yaml in its metadata', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'svc-wheel-'));
    try {
      const { fileName, wheel } = wheelOf();
      writeFileSync(join(scratch, fileName), wheel);
      const run = (file: string, args: string[]) => spawnSync(file, args, { cwd: scratch, encoding: 'utf8', timeout: 120_000 });
      expect(run(venvPython!, ['-m', 'venv', join(scratch, 'venv')]).status).toBe(0);
      const python = join(scratch, 'venv', 'bin', 'python');
      const installed = run(python, ['-m', 'pip', 'install', '--no-deps', '--no-index', '--disable-pip-version-check', join(scratch, fileName)]);
      expect(installed.stderr).not.toMatch(/ERROR/);
      expect(installed.status).toBe(0);
      const used = run(python, ['-c', 'import importlib.metadata as m, text_tools.echo as e; print(e.run({"a": 1}, None)); print(m.distribution("svc-acme-text-tools").read_text("pack.yaml").splitlines()[2])']);
      expect(used.stdout).toBe("{'a': 1}\nruntime: python\n");
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 180_000);

  it('is read back as the pack, pack.yaml at the root', async () => {
    const { manifest, files } = await inspectPackage(wheelOf().wheel);
    expect(manifest).toMatchObject({ runtime: 'python', python: '>=3.10', commands: [{ entry: 'text_tools.echo:run' }] });
    expect([...files.keys()].sort()).toEqual(['pack.yaml', 'text_tools/__init__.py', 'text_tools/echo.py']);
  });

  it('refuses a wheel whose RECORD does not match its files', async () => {
    const entries = unzipSync(wheelOf().wheel);
    entries['text_tools/echo.py'] = Buffer.from('import os\n');
    const error = await failure(readPackage(Buffer.from(zipSync(entries))));
    expect(error).toMatchObject({ code: 'PACKAGE_INVALID', message: 'text_tools/echo.py does not match its RECORD hash or size' });
    const unlisted = unzipSync(wheelOf().wheel);
    unlisted['text_tools/extra.py'] = Buffer.from('');
    expect(await failure(readPackage(Buffer.from(zipSync(unlisted))))).toMatchObject({ message: 'text_tools/extra.py is in the wheel but not in its RECORD' });
  });

  it('refuses a zip that is not a wheel, paths that leave the folder, and an entry missing from the package', async () => {
    expect(await failure(readPackage(zipOf({ 'pack.yaml': MANIFEST })))).toMatchObject({ code: 'PACKAGE_INVALID', message: expect.stringContaining('exactly one *.dist-info') });
    expect(await failure(readPackage(zipOf({ '../evil.py': '' })))).toMatchObject({ code: 'PACKAGE_PATH_INVALID' });
    const { wheel } = wheelOf({ 'pack.yaml': MANIFEST, 'text_tools/other.py': '' });
    expect(await failure(inspectPackage(wheel))).toMatchObject({ code: 'ENTRY_MISSING' });
  });

  it('holds a wheel to the archive limits', async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`text_tools/m${i}.py`, '']));
    const { wheel } = wheelOf({ ...FILES, ...files });
    expect(await failure(readPackage(wheel, { ...DEFAULT_ARCHIVE_LIMITS, maxFiles: 4 }))).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await failure(readPackage(wheel, { ...DEFAULT_ARCHIVE_LIMITS, maxUnpackedBytes: 100 }))).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('gives pre-releases their PEP 440 form, and refuses those without one', () => {
    expect(wheelVersion('1.0.0-rc.1')).toBe('1.0.0rc1');
    expect(wheelVersion('2.1.0-beta.3')).toBe('2.1.0b3');
    expect(() => wheelVersion('1.0.0-nightly')).toThrow(PackFormatError);
  });
});

describe('vendored wheels', () => {
  const target = { version: '3.11.2', machine: 'x86_64' };
  const vendored = (name: string) => new Map([[`vendor/${name}`, Buffer.alloc(0)]]);

  it('fit when pure Python, or built for the workers’ Python and machine', () => {
    expect(unfitVendoredWheels(vendored('six-1.16.0-py2.py3-none-any.whl'), target)).toEqual([]);
    expect(unfitVendoredWheels(vendored('ujson-5.9.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl'), target)).toEqual([]);
    expect(unfitVendoredWheels(vendored('pydantic_core-2.0-cp38-abi3-manylinux_2_17_x86_64.whl'), target)).toEqual([]);
  });

  it('are refused with a clear message when built for another Python or machine', () => {
    const [unfit] = unfitVendoredWheels(vendored('numpy-1.26.0-cp312-cp312-manylinux_2_17_aarch64.whl'), target);
    expect(unfit?.message).toBe(
      'vendor/numpy-1.26.0-cp312-cp312-manylinux_2_17_aarch64.whl is built for cp312-cp312-manylinux_2_17_aarch64; this platform runs Python 3.11.2 on linux x86_64: vendor a pure-Python wheel (py3-none-any) or one built for it',
    );
    expect(unfitVendoredWheels(vendored('thing-1.0-cp311-cp311-win_amd64.whl'), target)).toHaveLength(1);
  });

  it('are unpacked into vendor/ for the runner', () => {
    const inner = zipOf({ 'six.py': 'x = 1\n', 'six-1.16.0.dist-info/METADATA': 'Name: six\n' });
    const files = new Map([
      ['pack.yaml', Buffer.from(MANIFEST)],
      ['vendor/six-1.16.0-py2.py3-none-any.whl', inner],
    ]);
    const expanded = expandVendoredWheels(files, DEFAULT_ARCHIVE_LIMITS);
    expect([...expanded.keys()].sort()).toEqual(['pack.yaml', 'vendor/six-1.16.0.dist-info/METADATA', 'vendor/six.py']);
  });
});
