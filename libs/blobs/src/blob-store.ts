import type { Readable } from 'node:stream';

/** What `stat` tells of a blob. */
export interface BlobInfo {
  size: number;
}

/** An inclusive byte range, as HTTP `Range` gives it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where files live: pack packages, dashboard bundles. Keys are `/`-separated names such as
 * `packs/<pack id>/<version id>.tar.gz`; values are immutable byte strings. The interface is
 * the subset of an S3-compatible object store the services need (put, ranged get, head, delete,
 * delete by prefix), so that a bucket-backed implementation can replace the filesystem one
 * without touching callers, and replicas of a service then read the same files.
 */
export interface BlobStore {
  readonly kind: 'filesystem' | 's3';
  put(key: string, bytes: Buffer): Promise<void>;
  /** Stores what `source` yields under `key`; nothing is left under `key` when it fails. */
  putStream(key: string, source: Readable): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** The bytes under `key` (only `range`, when given) as a stream, or undefined when there are none. */
  open(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Size of the blob under `key`, or undefined when there is none. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every key under `prefix/` (a whole folder of keys); an empty prefix is refused. */
  deletePrefix(prefix: string): Promise<void>;
}

/** The characters a key's segment may hold: letters, digits and `._~@+-`. */
const SEGMENT = /^[A-Za-z0-9._~@+-]+$/;

/** Whether `key` is a well-formed key: non-empty segments of SEGMENT's characters, none `.` or `..`. */
export function isBlobKey(key: string): boolean {
  return key.split('/').every((part) => SEGMENT.test(part) && part !== '.' && part !== '..');
}

/** Keys are built by services, never taken whole from clients; this guards against a bug turning into a path escape. */
export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`Invalid blob key: ${key}`);
}
