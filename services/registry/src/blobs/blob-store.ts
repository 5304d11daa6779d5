/**
 * Where package files live. Keys are `/`-separated names such as
 * `packs/<pack id>/<version id>.tar.gz`; values are immutable byte strings. The interface is
 * the subset of an S3-compatible object store the registry needs, so that a bucket-backed
 * implementation can replace the filesystem one without touching callers.
 */
export interface BlobStore {
  readonly kind: 'filesystem' | 's3';
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

/** Keys are built by the registry, never taken from clients; this guards against a bug turning into a path escape. */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) throw new Error(`Invalid blob key: ${key}`);
}
