import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '@svc/bus';
import { FETCH_PACKAGE_RPC } from '@svc/contracts';
import { createPackArchive } from '@svc/pack-sdk';
import { sandboxPackId, sandboxVersionId } from '../../core/sandbox-packs.js';
import { PackCache } from './pack-cache.js';

let bus: Bus;
let root: string;
const tarballs = new Map<string, Buffer>();

beforeAll(async () => {
  bus = await createBus();
  root = await mkdtemp(join(tmpdir(), 'svc-pack-cache-'));
  await bus.respond(FETCH_PACKAGE_RPC, async (request) => {
    const { version_id } = request as { version_id: string };
    const tarball = tarballs.get(version_id)!;
    return { version_id, sha256: createHash('sha256').update(tarball).digest('hex'), size_bytes: tarball.length, tarball_base64: tarball.toString('base64') };
  });
});

afterAll(async () => {
  await bus.close();
  await rm(root, { recursive: true, force: true });
});

const V_OK = randomUUID();
const V_BAD = randomUUID();

const stagingFolders = async () => (await readdir(root)).filter((name) => name.startsWith('.staging-'));

describe('PackCache', () => {
  it('unpacks a version read-only, in folders runners of another uid can search', async () => {
    tarballs.set(V_OK, await createPackArchive({ 'pack.yaml': 'schema_version: 1\n', 'commands/echo.js': 'export default (i) => i;\n' }));
    const dir = await new PackCache(bus, root).dirFor('pack-ok', V_OK);
    expect(dir).toBe(join(root, 'pack-ok', V_OK));
    expect((await readdir(join(dir, 'commands')))).toEqual(['echo.js']);
  });

  it('leaves no staging folder behind when unpacking fails half way', async () => {
    // A name of 256 bytes (128 two-byte characters) passes the package checks and fails at the disk.
    const tooLong = 'é'.repeat(128);
    tarballs.set(V_BAD, await createPackArchive({ 'pack.yaml': 'schema_version: 1\n', 'a.js': 'x', [`${tooLong}.js`]: 'y' }));
    const cache = new PackCache(bus, root);
    for (let attempt = 0; attempt < 3; attempt += 1) await expect(cache.dirFor('pack-bad', V_BAD)).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
    expect(await stagingFolders()).toEqual([]);
  });

  it('sweeps staging folders a killed process left behind', async () => {
    await mkdir(join(root, '.staging-left-by-a-crash', 'commands'), { recursive: true });
    await new PackCache(bus, root).sweep();
    expect(await stagingFolders()).toEqual([]);
  });

  it('keeps on disk, of a sandbox, the last sync of each of its packs', async () => {
    const synced = new Map<string, Buffer>();
    const cache = new PackCache(bus, root, { tarball: async (_userId, sha256) => synced.get(sha256), synced: async () => [...synced.keys()] });
    const latest = new Map<string, string>();
    const sync = async (pack: string, body: string) => {
      const tarball = await createPackArchive({ 'pack.yaml': 'schema_version: 1\n', 'commands/run.js': body });
      const sha256 = createHash('sha256').update(tarball).digest('hex');
      if (latest.has(pack)) synced.delete(latest.get(pack)!);
      latest.set(pack, sha256);
      synced.set(sha256, tarball);
      return cache.dirFor(sandboxPackId('u1'), sandboxVersionId(sha256));
    };
    const other = await sync('tools', 'export default () => 0;\n');
    await sync('echo', 'export default () => 1;\n');
    const last = await sync('echo', 'export default () => 2;\n');
    expect((await readdir(join(root, sandboxPackId('u1')))).sort()).toEqual([basename(other), basename(last)].sort());
    expect(await readFile(join(last, 'commands/run.js'), 'utf8')).toBe('export default () => 2;\n');
  });
});
