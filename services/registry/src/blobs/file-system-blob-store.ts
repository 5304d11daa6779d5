import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.js';

/**
 * Blobs as files under `root`. A write goes to a temporary file first and is renamed into
 * place, so a reader never sees half a package and a crash leaves no torn file behind.
 *
 * @example
 *   const blobs = createFileSystemBlobStore(join(env.SVC_DATA_DIR, 'blobs'));
 *   await blobs.put('packs/p1/v1.tar.gz', tarball);
 */
export function createFileSystemBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(base, key);
  };
  return {
    kind: 'filesystem',
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, path);
      } catch (err) {
        await rm(temporary, { force: true });
        throw err;
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
