import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { createPackArchive, DEFAULT_ARCHIVE_LIMITS, readPackArchive } from './archive.js';
import { PackFormatError } from './errors.js';
import { MAX_PACKAGE_FILES, MAX_UNPACKED_BYTES } from './limits.js';
import { inspectPackage } from './package.js';
import { tarballByGnuTar, tarballByNpmPack } from './testing/archivers.js';

const gzip = promisify(gzipCallback);

type RawEntry = Partial<Header> & { name: string; content?: string | Buffer };

/** A tarball built entry by entry, malicious ones included, as an attacker would. */
async function rawTarGz(entries: RawEntry[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const { content, ...header } of entries) {
    if (content === undefined) archive.entry({ type: 'file', ...header });
    else archive.entry({ type: 'file', ...header }, content);
  }
  archive.finalize();
  await done;
  return gzip(Buffer.concat(chunks));
}

async function failure(work: Promise<unknown>): Promise<PackFormatError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof PackFormatError) return err;
    throw err;
  }
  throw new Error('expected a PackFormatError');
}

const MANIFEST = `schema_version: 1
pack: { namespace: acme, name: text-tools, version: 1.0.0 }
commands:
  - { name: echo, entry: commands/echo.js, input_schema: { type: object } }
`;
const ECHO = 'export default async (input) => input;\n';

describe('readPackArchive', () => {
  it('reads back what createPackArchive wrote, paths normalised', async () => {
    const tarball = await createPackArchive({ 'pack.yaml': MANIFEST, './commands/echo.js': ECHO });
    const { files, unpackedBytes } = await readPackArchive(tarball);
    expect([...files.keys()].sort()).toEqual(['commands/echo.js', 'pack.yaml']);
    expect(files.get('commands/echo.js')!.toString()).toBe(ECHO);
    expect(unpackedBytes).toBe(Buffer.byteLength(MANIFEST) + Buffer.byteLength(ECHO));
  });

  it('gives the same bytes for the same files', async () => {
    const files = { 'pack.yaml': MANIFEST, 'commands/echo.js': ECHO };
    expect((await createPackArchive(files)).equals(await createPackArchive(files))).toBe(true);
  });

  it('accepts directories and ignores them', async () => {
    const tarball = await rawTarGz([{ name: 'commands/', type: 'directory' }, { name: 'commands/echo.js', content: ECHO }]);
    expect([...(await readPackArchive(tarball)).files.keys()]).toEqual(['commands/echo.js']);
  });

  describe('archives made by the usual tools', () => {
    const files = { 'pack.yaml': MANIFEST, 'commands/echo.js': ECHO };

    it('reads GNU tar of a folder (tar czf x.tgz -C dir .): the ./ root and directories skipped, ./ prefixes dropped', async () => {
      const { files: read } = await readPackArchive(await tarballByGnuTar(files));
      expect([...read.keys()].sort()).toEqual(['commands/echo.js', 'pack.yaml']);
      expect((await inspectPackage(await tarballByGnuTar(files))).manifest.pack.name).toBe('text-tools');
    });

    it("reads npm pack's archive with its package/ folder moved to the root", async () => {
      const { files: read } = await readPackArchive(await tarballByNpmPack(files));
      expect([...read.keys()].sort()).toEqual(['commands/echo.js', 'pack.yaml', 'package.json']);
      expect(read.get('commands/echo.js')!.toString()).toBe(ECHO);
    });

    it('reads a tar-stream archive with a ./ root entry and ./ prefixes', async () => {
      const tarball = await rawTarGz([
        { name: './', type: 'directory' },
        { name: './commands/', type: 'directory' },
        { name: './pack.yaml', content: MANIFEST },
        { name: './commands/echo.js', content: ECHO },
      ]);
      expect([...(await readPackArchive(tarball)).files.keys()].sort()).toEqual(['commands/echo.js', 'pack.yaml']);
    });
  });

  it.each([
    ['plain text', Buffer.from('definitely not a tarball')],
    ['a zip file', Buffer.from('504b0304140000000800', 'hex')],
    ['an empty upload', Buffer.alloc(0)],
  ])('refuses %s as not a gzip with PACKAGE_INVALID', async (_label, bytes) => {
    const error = await failure(readPackArchive(bytes));
    expect(error.code).toBe('PACKAGE_INVALID');
    expect(error.message).toContain('gzip');
  });

  it('refuses a truncated gzip stream with PACKAGE_INVALID', async () => {
    const tarball = await createPackArchive({ 'pack.yaml': MANIFEST });
    expect((await failure(readPackArchive(tarball.subarray(0, tarball.length - 12)))).code).toBe('PACKAGE_INVALID');
  });

  it('refuses gzip content that is not a tar archive with PACKAGE_INVALID', async () => {
    const error = await failure(readPackArchive(await gzip(Buffer.alloc(1024, 'x'))));
    expect(error.code).toBe('PACKAGE_INVALID');
    expect(error.message).toContain('tar');
  });

  it.each([
    ['a parent-directory escape', { name: '../evil.js', content: 'x' }],
    ['a nested escape', { name: 'commands/../../evil.js', content: 'x' }],
    ['an absolute path', { name: '/etc/cron.d/evil', content: 'x' }],
    ['a backslash path', { name: '..\\evil.js', content: 'x' }],
    ['a symbolic link', { name: 'commands/echo.js', type: 'symlink' as const, linkname: '/etc/passwd' }],
    ['a hard link', { name: 'commands/echo.js', type: 'link' as const, linkname: 'pack.yaml' }],
    ['a device file', { name: 'dev', type: 'character-device' as const }],
  ])('refuses %s with PACKAGE_PATH_INVALID', async (_label, entry) => {
    const error = await failure(readPackArchive(await rawTarGz([{ name: 'pack.yaml', content: MANIFEST }, entry])));
    expect(error.code).toBe('PACKAGE_PATH_INVALID');
    expect(error.details.entry).toBe(entry.name);
  });

  it.each([
    ['a file inside a file', ['zz', 'zz/y']],
    ['a file inside a file, listed first', ['zz/y', 'zz']],
    ['a file deep inside a file', ['a/b', 'a/b/c/d']],
  ])('refuses %s with PACKAGE_PATH_INVALID', async (_label, names) => {
    const tarball = await rawTarGz([{ name: 'pack.yaml', content: MANIFEST }, ...names.map((name) => ({ name, content: 'x' }))]);
    const error = await failure(readPackArchive(tarball));
    expect(error.code).toBe('PACKAGE_PATH_INVALID');
    expect(error.message).toMatch(/lies inside "(zz|a\/b)", which is a file/);
  });

  it('refuses a file that appears twice', async () => {
    const tarball = await rawTarGz([
      { name: 'pack.yaml', content: MANIFEST },
      { name: './pack.yaml', content: 'schema_version: 2' },
    ]);
    expect((await failure(readPackArchive(tarball))).code).toBe('PACKAGE_PATH_INVALID');
  });

  describe('limits at the edge', () => {
    it('accepts a package of exactly the compressed limit and refuses it under a limit one byte smaller', async () => {
      const tarball = await createPackArchive({ 'pack.yaml': MANIFEST });
      await expect(readPackArchive(tarball, { ...DEFAULT_ARCHIVE_LIMITS, maxPackageBytes: tarball.length })).resolves.toBeDefined();
      const error = await failure(readPackArchive(tarball, { ...DEFAULT_ARCHIVE_LIMITS, maxPackageBytes: tarball.length - 1 }));
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it(`accepts ${MAX_PACKAGE_FILES} files and refuses ${MAX_PACKAGE_FILES + 1}`, async () => {
      const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f/${i}.js`, '']));
      expect((await readPackArchive(await createPackArchive(files(MAX_PACKAGE_FILES)))).files.size).toBe(MAX_PACKAGE_FILES);
      const error = await failure(readPackArchive(await createPackArchive(files(MAX_PACKAGE_FILES + 1))));
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(error.details.limit_files).toBe(MAX_PACKAGE_FILES);
    });

    it(`accepts files adding up to ${MAX_UNPACKED_BYTES} bytes and refuses one byte more`, async () => {
      const atLimit = await createPackArchive({ 'pack.yaml': 'x', 'big.bin': Buffer.alloc(MAX_UNPACKED_BYTES - 1) });
      expect((await readPackArchive(atLimit)).unpackedBytes).toBe(MAX_UNPACKED_BYTES);
      const over = await createPackArchive({ 'pack.yaml': 'xx', 'big.bin': Buffer.alloc(MAX_UNPACKED_BYTES - 1) });
      const error = await failure(readPackArchive(over));
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(error.details.limit_bytes).toBe(MAX_UNPACKED_BYTES);
    });

    it('stops decompressing a gzip bomb early', async () => {
      const bomb = await gzip(Buffer.alloc(2 * MAX_UNPACKED_BYTES));
      expect(bomb.length).toBeLessThan(200 * 1024);
      expect((await failure(readPackArchive(bomb))).code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});

describe('inspectPackage', () => {
  it('returns the manifest and files of a valid package', async () => {
    const { manifest, files } = await inspectPackage(await createPackArchive({ 'pack.yaml': MANIFEST, 'commands/echo.js': ECHO }));
    expect(manifest.pack).toMatchObject({ namespace: 'acme', name: 'text-tools', version: '1.0.0' });
    expect(files.has('commands/echo.js')).toBe(true);
  });

  it('refuses a package whose entry file is missing with ENTRY_MISSING', async () => {
    const error = await failure(inspectPackage(await createPackArchive({ 'pack.yaml': MANIFEST, 'commands/other.js': ECHO })));
    expect(error.code).toBe('ENTRY_MISSING');
    expect(error.details).toMatchObject({ command: 'echo', entry: 'commands/echo.js', field: 'commands.0.entry' });
  });

  it('reports every missing entry and the manifest\'s problems together, in one error', async () => {
    const twoCommands = `schema_version: 1
pack: { namespace: "@acme", name: text-tools, version: "1.0" }
commands:
  - { name: echo, entry: commands/echo.js, input_schema: { type: object } }
  - { name: shout, entry: commands/shout.js, input_schema: { type: object } }
`;
    const error = await failure(inspectPackage(await createPackArchive({ 'pack.yaml': twoCommands, 'commands/other.js': ECHO })));
    expect(error.code).toBe('MANIFEST_INVALID');
    const issues = error.details.issues as Array<{ code: string; field: string }>;
    expect(issues.map((issue) => `${issue.code} ${issue.field}`)).toEqual(expect.arrayContaining(['MANIFEST_INVALID pack.namespace', 'MANIFEST_INVALID pack.version', 'ENTRY_MISSING commands.0.entry', 'ENTRY_MISSING commands.1.entry']));
    expect(error.message).toContain(`(and ${issues.length - 1} more)`);

    const valid = MANIFEST.replace('commands:\n', 'commands:\n  - { name: shout, entry: commands/shout.js, input_schema: { type: object } }\n');
    const entries = await failure(inspectPackage(await createPackArchive({ 'pack.yaml': valid, 'commands/other.js': ECHO })));
    expect(entries.code).toBe('ENTRY_MISSING');
    expect((entries.details.issues as Array<{ field: string }>).map((issue) => issue.field)).toEqual(['commands.0.entry', 'commands.1.entry']);
  });

  it('refuses a package without pack.yaml at its root, pointing at a nested one', async () => {
    const error = await failure(inspectPackage(await createPackArchive({ 'text-tools/pack.yaml': MANIFEST, 'commands/echo.js': ECHO })));
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.message).toContain('text-tools/pack.yaml');
  });

  it('refuses a pack.yaml that is not UTF-8', async () => {
    const error = await failure(inspectPackage(await createPackArchive({ 'pack.yaml': Buffer.from([0xff, 0xfe, 0x00]) })));
    expect(error.code).toBe('MANIFEST_INVALID');
  });
});
