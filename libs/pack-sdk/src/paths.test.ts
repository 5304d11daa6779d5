import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH } from './limits.js';
import { PackFormatError } from './errors.js';
import { archiveEntry, checkPackagePath, withoutNpmPackageFolder } from './paths.js';

describe('checkPackagePath', () => {
  it.each([
    ['./commands/echo.js', 'commands/echo.js'],
    ['././pack.yaml', 'pack.yaml'],
    ['commands/', 'commands'],
    ['lib/name with spaces.js', 'lib/name with spaces.js'],
  ])('normalises %s to %s', (raw, path) => {
    expect(checkPackagePath(raw)).toEqual({ path });
  });

  it.each(['', './', '/etc/passwd', '../x', 'a/../../x', 'a/./b', 'a//b', 'a\\b', 'C:/x', 'a\nb', 'a\u0000b', 'a\u007fb'])('refuses %j', (raw) => {
    expect(checkPackagePath(raw).problem).toEqual(expect.any(String));
  });

  it(`accepts a path of ${MAX_PATH_LENGTH} characters and refuses one more`, () => {
    expect(checkPackagePath('a'.repeat(MAX_PATH_LENGTH)).path).toHaveLength(MAX_PATH_LENGTH);
    expect(checkPackagePath('a'.repeat(MAX_PATH_LENGTH + 1)).problem).toContain(String(MAX_PATH_LENGTH));
  });
});

describe('archiveEntry', () => {
  it.each(['./', '.', '././'])('skips the root directory entry %j', (name) => {
    expect(archiveEntry({ name, type: 'directory' })).toBeNull();
  });

  it.each([
    [{ name: './pack.yaml', type: 'file' }, { kind: 'file', path: 'pack.yaml' }],
    [{ name: './commands/', type: 'directory' }, { kind: 'directory', path: 'commands' }],
    [{ name: 'package/commands/echo.js', type: 'file' }, { kind: 'file', path: 'package/commands/echo.js' }],
  ])('keeps %j', (header, kept) => {
    expect(archiveEntry(header)).toEqual(kept);
  });

  it.each([
    { name: './', type: 'file' },
    { name: '../x', type: 'directory' },
    { name: '/etc/', type: 'directory' },
    { name: './a/../../x', type: 'file' },
    { name: 'x', type: 'symlink' },
    { name: 'x', type: 'link' },
    { name: 'x', type: 'character-device' },
    { name: 'x', type: 'block-device' },
    { name: 'x', type: 'fifo' },
    { name: 'x', type: null },
  ])('refuses %j with PACKAGE_PATH_INVALID', (header) => {
    const error = (() => {
      try {
        archiveEntry(header);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(PackFormatError);
    expect((error as PackFormatError).code).toBe('PACKAGE_PATH_INVALID');
    expect((error as PackFormatError).details.entry).toBe(header.name);
  });
});

describe('withoutNpmPackageFolder', () => {
  it('moves the files of an npm pack archive to the root', () => {
    const moved = withoutNpmPackageFolder(new Map([['package/pack.yaml', 1], ['package/commands/echo.js', 2]]));
    expect([...moved]).toEqual([['pack.yaml', 1], ['commands/echo.js', 2]]);
  });

  it('leaves an archive with files beside package/ as it is', () => {
    const files = new Map([['pack.yaml', 1], ['package/data.json', 2]]);
    expect(withoutNpmPackageFolder(files)).toBe(files);
  });

  it('leaves an empty archive as it is', () => {
    expect(withoutNpmPackageFolder(new Map()).size).toBe(0);
  });
});
