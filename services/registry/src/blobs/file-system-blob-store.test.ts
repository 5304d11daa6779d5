import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store.js';
import { createFileSystemBlobStore } from './file-system-blob-store.js';

describe('filesystem blob store', () => {
  let root: string;
  let blobs: BlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-blobs-'));
    blobs = createFileSystemBlobStore(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores, reads back and deletes bytes under a nested key, leaving no temporary file', async () => {
    await blobs.put('packs/p1/v1.tar.gz', Buffer.from('package'));
    expect((await blobs.get('packs/p1/v1.tar.gz'))?.toString()).toBe('package');
    expect(await readdir(join(root, 'packs/p1'))).toEqual(['v1.tar.gz']);
    await blobs.delete('packs/p1/v1.tar.gz');
    expect(await blobs.get('packs/p1/v1.tar.gz')).toBeUndefined();
  });

  it('treats a missing key as absent, for reads and deletes alike', async () => {
    expect(await blobs.get('packs/none.tar.gz')).toBeUndefined();
    await expect(blobs.delete('packs/none.tar.gz')).resolves.toBeUndefined();
  });

  it.each(['../escape', 'packs/../../escape', '/absolute', 'packs//double', 'a\\b'])('refuses the key %s', async (key) => {
    await expect(blobs.put(key, Buffer.from('x'))).rejects.toThrow('Invalid blob key');
    await expect(blobs.get(key)).rejects.toThrow('Invalid blob key');
  });
});
