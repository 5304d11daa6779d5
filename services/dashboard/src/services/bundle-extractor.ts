import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { isBlobKey, type BlobStore } from '@svc/blobs';
import { DASHBOARD_BUNDLE_MAX_FILES, DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES } from '@svc/contracts';
import { AppError } from '@svc/core';
import { bundleTooLarge, entryPointMissing, invalidTarball } from './errors.js';

export const ENTRY_POINT = 'main.js' as const;
/** Room for tar's headers and padding beyond the files' own bytes before the stream counts as a bomb. */
const TAR_FRAMING_SLACK_BYTES = 4 * 1024 * 1024;

/** A stored file of a bundle. */
export interface BundleFile {
  path: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * The path an entry is stored under, relative to the bundle's root; undefined for the root
 * itself. Refuses absolute paths, `..`, and names a blob key cannot carry.
 */
function bundlePath(header: Header): string | undefined {
  const name = header.name.replace(/^(\.\/)+/, '');
  if (name === '' || name === '.' || name === './') return undefined;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw invalidTarball(`entry "${header.name}" has an absolute path`, { entry: header.name });
  const path = name.replace(/\/+$/, '');
  if (path.split('/').some((part) => part === '..')) throw invalidTarball(`entry "${header.name}" escapes the bundle with ".."`, { entry: header.name });
  if (!isBlobKey(path)) throw invalidTarball(`entry "${header.name}" has a name outside letters, digits and "._~@+-" in "/"-separated parts`, { entry: header.name });
  return path;
}

/** Counts what flows through and fails once more than `limit` bytes have (a gzip bomb). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(bundleTooLarge(`The bundle unpacks to more than ${DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES} bytes`, { reason: 'uncompressed_too_large', limit_bytes: DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES }));
      else done(null, chunk);
    },
  });
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Extracts the `.tar.gz` at `file` into `blobs` under `prefix/`, streaming each regular file
 * (never the whole bundle in memory) and refusing, while it reads, what Part 2 and the issue's
 * hostile-tarball table refuse: not gzip or not tar, absolute paths, `..`, links, devices,
 * duplicates, more than DASHBOARD_BUNDLE_MAX_FILES files, an uncompressed total beyond
 * DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES, and no `main.js` at the root. On refusal the caller
 * removes `prefix/`.
 */
export async function extractBundle(file: string, blobs: BlobStore, prefix: string): Promise<BundleFile[]> {
  if (!(await isGzip(file))) throw invalidTarball('the bundle is not gzip-compressed (send a .tar.gz)', { issue: 'not_gzip' });
  const stored = new Map<string, BundleFile>();
  let total = 0;
  const archive = extract();
  archive.on('entry', (header, stream, next) => {
    // A refused entry's stream is destroyed with the archive; the pipeline below reports why.
    stream.on('error', () => {});
    const storeEntry = async () => {
      const path = bundlePath(header);
      if (header.type === 'directory') return stream.resume();
      if (header.type !== 'file' && header.type !== 'contiguous-file') {
        throw invalidTarball(`entry "${header.name}" is a ${header.type}; a bundle holds regular files only`, { entry: header.name, entry_type: header.type });
      }
      if (!path) throw invalidTarball(`entry "${header.name}" has no name`, { entry: header.name });
      if (stored.has(path)) throw invalidTarball(`entry "${path}" appears twice`, { entry: path });
      if (stored.size >= DASHBOARD_BUNDLE_MAX_FILES) throw invalidTarball(`the bundle holds more than ${DASHBOARD_BUNDLE_MAX_FILES} files`, { issue: 'too_many_files', limit: DASHBOARD_BUNDLE_MAX_FILES });
      total += header.size ?? 0;
      if (total > DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES) {
        throw bundleTooLarge(`The bundle unpacks to more than ${DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES} bytes`, { reason: 'uncompressed_too_large', limit_bytes: DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES });
      }
      const hash = createHash('sha256');
      let size = 0;
      // A transform, not a 'data' listener: the bytes wait for the blob store's writer.
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await blobs.putStream(`${prefix}/${path}`, stream.pipe(counted));
      stored.set(path, { path, sizeBytes: size, sha256: hash.digest('hex') });
    };
    storeEntry().then(
      () => next(),
      (err: unknown) => next(err as Error),
    );
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), byteLimit(DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES + TAR_FRAMING_SLACK_BYTES), archive);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalidTarball(`the bundle could not be read as a gzip-compressed tar archive (${(err as Error).message})`, { issue: 'unreadable' });
  }
  if (!stored.has(ENTRY_POINT)) throw entryPointMissing();
  return [...stored.values()];
}
