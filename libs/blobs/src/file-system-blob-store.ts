import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey, type BlobStore } from './blob-store.js';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Blobs as files under `root`. A write goes to a temporary file first and is renamed into
 * place, so a reader never sees half a file and a crash leaves no torn file behind.
 *
 * @example
 *   const blobs = createFileSystemBlobStore(join(env.SVC_DATA_DIR, 'blobs'));
 *   await blobs.put('packs/p1/v1.tar.gz', tarball);
 *   const stream = await blobs.open('dashboards/d1/v1/main.js', { start: 0, end: 99 });
 */
export function createFileSystemBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(base, key);
  };
  /** Writes through a temporary file beside `key`'s, renamed into place once whole. */
  const writeAtomically = async (key: string, write: (temporary: string) => Promise<void>) => {
    const path = pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await write(temporary);
      await rename(temporary, path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  };
  return {
    kind: 'filesystem',
    put: (key, bytes) => writeAtomically(key, (temporary) => writeFile(temporary, bytes)),
    putStream: (key, source: Readable) => writeAtomically(key, (temporary) => pipeline(source, createWriteStream(temporary))),
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async open(key, range) {
      const stream = createReadStream(pathOf(key), range);
      // Opening is asynchronous: wait for it, so a missing file is an answer and not a stream error.
      return new Promise((done, fail) => {
        stream.once('open', () => done(stream));
        stream.once('error', (err) => (missing(err) ? done(undefined) : fail(err)));
      });
    },
    async stat(key) {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? { size: info.size } : undefined;
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },
  };
}
