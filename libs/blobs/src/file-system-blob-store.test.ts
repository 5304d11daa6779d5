import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
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

  it('streams bytes in and ranges of them out, states their size and removes a whole prefix', async () => {
    await blobs.putStream('dashboards/d1/v1/main.js', Readable.from([Buffer.from('export const '), Buffer.from('mount = 1;')]));
    await blobs.put('dashboards/d1/v1/assets/app.css', Buffer.from('body{}'));
    expect(await blobs.stat('dashboards/d1/v1/main.js')).toEqual({ size: 23 });
    expect(await text((await blobs.open('dashboards/d1/v1/main.js'))!)).toBe('export const mount = 1;');
    expect(await text((await blobs.open('dashboards/d1/v1/main.js', { start: 7, end: 11 }))!)).toBe('const');
    expect(await blobs.stat('dashboards/d1/v1/assets')).toBeUndefined();
    await blobs.deletePrefix('dashboards/d1');
    expect(await readdir(join(root, 'dashboards'))).toEqual([]);
    expect(await blobs.open('dashboards/d1/v1/main.js')).toBeUndefined();
    expect(await blobs.stat('dashboards/d1/v1/main.js')).toBeUndefined();
  });

  it('leaves nothing behind when a streamed write fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(blobs.putStream('dashboards/d2/v1/main.js', failing)).rejects.toThrow('client went away');
    expect(await readdir(join(root, 'dashboards/d2/v1'))).toEqual([]);
  });

  it.each(['../escape', 'packs/../../escape', '/absolute', 'packs//double', 'a\\b', '', 'packs/.'])('refuses the key %s', async (key) => {
    await expect(blobs.put(key, Buffer.from('x'))).rejects.toThrow('Invalid blob key');
    await expect(blobs.get(key)).rejects.toThrow('Invalid blob key');
    await expect(blobs.deletePrefix(key)).rejects.toThrow('Invalid blob key');
  });
});
