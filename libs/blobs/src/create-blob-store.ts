import { fileURLToPath } from 'node:url';
import type { BlobStore } from './blob-store.js';
import { createFileSystemBlobStore } from './file-system-blob-store.js';
import { createS3BlobStore } from './s3-blob-store.js';

export interface BlobStoreSettings {
  /**
   * `s3://bucket/prefix` for an S3-compatible bucket, `file:///path` for a folder (one the
   * replicas share); unset: `localDir`, this process's own.
   */
  url?: string;
  /** The folder used when no URL is given (`SVC_DATA_DIR/blobs`). */
  localDir: string;
  /** An S3-compatible endpoint other than AWS (MinIO, R2, Ceph); path-style addressing is used with it. */
  endpoint?: string;
  /** Default `AWS_REGION`, else us-east-1. Credentials come from the AWS SDK's usual chain (`AWS_ACCESS_KEY_ID`, …). */
  region?: string;
}

/**
 * The blob store a service's settings name (`BLOB_STORE_URL`, `BLOB_STORE_ENDPOINT`).
 *
 * @example
 *   const blobs = createBlobStore({ url: env.BLOB_STORE_URL, endpoint: env.BLOB_STORE_ENDPOINT, localDir: join(env.SVC_DATA_DIR, 'blobs') });
 */
export function createBlobStore(settings: BlobStoreSettings): BlobStore {
  if (!settings.url) return createFileSystemBlobStore(settings.localDir);
  const url = new URL(settings.url);
  if (url.protocol === 'file:') return createFileSystemBlobStore(fileURLToPath(url));
  if (url.protocol !== 's3:' || !url.hostname) throw new Error(`BLOB_STORE_URL must be s3://bucket/prefix or file:///path, not ${settings.url}`);
  const path = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  const client = {
    region: settings.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
  };
  return createS3BlobStore({ client, bucket: url.hostname, prefix: path && !path.endsWith('/') ? `${path}/` : path });
}
