import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pack } from 'tar-stream';
import { createFileSystemBlobStore, type BlobStore } from '@svc/blobs';
import { extractBundle } from './bundle-extractor.js';

/** A .tar.gz of `entries`, written to a file as multer leaves an upload. */
async function tarball(dir: string, entries: Array<{ name: string; content: Buffer }>): Promise<string> {
  const archive = pack();
  for (const { name, content } of entries) archive.entry({ name }, content);
  archive.finalize();
  const file = join(dir, 'bundle.tar.gz');
  await writeFile(file, gzipSync(await buffer(archive)));
  return file;
}

const read = async (blobs: BlobStore, key: string) => buffer((await blobs.open(key))!);

describe('bundle extraction', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-dashboard-extract-'));
    blobs = createFileSystemBlobStore(join(dir, 'blobs'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  // A file of many stream chunks once lost its first ones while the blob writer was opened, so
  // the stated size (the Content-Length served) exceeded the stored bytes and clients waited.
  it('stores files of many chunks whole, with the size and SHA-256 of the stored bytes', async () => {
    const main = randomBytes(3 * 1024 * 1024 + 17);
    const css = Buffer.from('body { margin: 0 }\n');
    const stored = await extractBundle(await tarball(dir, [{ name: 'main.js', content: main }, { name: 'assets/app.css', content: css }]), blobs, 'dashboards/d1/v1');
    expect(stored.map(({ path, sizeBytes }) => [path, sizeBytes]).sort()).toEqual([
      ['assets/app.css', css.length],
      ['main.js', main.length],
    ]);
    for (const [path, content] of [['main.js', main], ['assets/app.css', css]] as const) {
      const bytes = await read(blobs, `dashboards/d1/v1/${path}`);
      expect(bytes.equals(content), path).toBe(true);
      expect(stored.find((file) => file.path === path)?.sha256).toBe(createHash('sha256').update(content).digest('hex'));
      expect((await blobs.stat(`dashboards/d1/v1/${path}`))?.size).toBe(content.length);
    }
  });
});
