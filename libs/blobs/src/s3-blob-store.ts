import type { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { assertBlobKey, type BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  /** A client, or the settings of the one the store makes with its first call. */
  client: S3Client | S3ClientConfig;
  bucket: string;
  /** Put in front of every key, e.g. `svc/` to share a bucket; '' by default. */
  prefix?: string;
}

/** Whether an S3 client error says the object is not there (GET's `NoSuchKey`, HEAD's bare 404). */
const absent = (err: unknown) => {
  const { name, $metadata } = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
};

/** What S3 takes at most in one DeleteObjects call. */
const DELETE_BATCH = 1000;

/**
 * The AWS SDK and a client, loaded with the store's first call: a process whose blobs are files
 * (the embedded platform's) never holds the SDK's modules, 3.4 MB of V8's heap and more outside
 * it (BENCHMARKS.md, twentieth round).
 */
function sdkWith(client: S3Client | S3ClientConfig) {
  let loading: Promise<{ s3: typeof import('@aws-sdk/client-s3'); Upload: typeof import('@aws-sdk/lib-storage').Upload; client: S3Client }> | undefined;
  return () =>
    (loading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, { Upload }]) => ({
      s3,
      Upload,
      client: 'send' in client ? client : new s3.S3Client(client),
    })));
}

/**
 * Blobs as objects in an S3-compatible bucket (AWS S3, MinIO, R2, Ceph), so that every replica of
 * a service reads the same files. An object appears whole or not at all (a failed streamed upload
 * is aborted, its parts removed), which is the guarantee the filesystem store gets from renaming.
 *
 * @example
 *   const blobs = createS3BlobStore({ client: { region: 'us-east-1', endpoint: 'http://minio:9000', forcePathStyle: true }, bucket: 'svc', prefix: 'prod/' });
 */
export function createS3BlobStore({ client: given, bucket, prefix = '' }: S3BlobStoreOptions): BlobStore {
  const sdk = sdkWith(given);
  const keyOf = (key: string) => {
    assertBlobKey(key);
    return prefix + key;
  };
  const read = async (key: string, range?: { start: number; end: number }) => {
    const { s3, client } = await sdk();
    try {
      const answer = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: keyOf(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      return answer.Body as (Readable & { transformToByteArray(): Promise<Uint8Array> }) | undefined;
    } catch (err) {
      if (absent(err)) return undefined;
      throw err;
    }
  };
  return {
    kind: 's3',
    async put(key, bytes) {
      const { s3, client } = await sdk();
      await client.send(new s3.PutObjectCommand({ Bucket: bucket, Key: keyOf(key), Body: bytes }));
    },
    async putStream(key, source) {
      const { Upload, client } = await sdk();
      // Multipart above 5 MiB, one PUT below; either way the object appears only once complete.
      await new Upload({ client, params: { Bucket: bucket, Key: keyOf(key), Body: source } }).done();
    },
    async get(key) {
      const body = await read(key);
      return body ? Buffer.from(await body.transformToByteArray()) : undefined;
    },
    open: (key, range) => read(key, range),
    async stat(key) {
      const { s3, client } = await sdk();
      try {
        const head = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        return { size: head.ContentLength ?? 0 };
      } catch (err) {
        if (absent(err)) return undefined;
        throw err;
      }
    },
    async delete(key) {
      const { s3, client } = await sdk();
      await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
    },
    async deletePrefix(folder) {
      const { s3, client } = await sdk();
      const under = `${keyOf(folder)}/`;
      let token: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: under, ContinuationToken: token, MaxKeys: DELETE_BATCH }));
        const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (objects.length > 0) await client.send(new s3.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
