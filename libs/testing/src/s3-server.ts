import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for `BLOB_STORE_ENDPOINT`. */
  endpoint: string;
  bucket: string;
  /** What a process needs to keep its blobs under `prefix` of the bucket. */
  envFor(prefix: string): Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) on a free port, its objects in a temporary folder, with
 * one bucket: the S3 blob backend's tests talk the real protocol through the AWS SDK to it.
 *
 * @example
 *   const s3 = await startS3Server();
 *   const blobs = createBlobStore({ url: `s3://${s3.bucket}/run-1`, endpoint: s3.endpoint, localDir: '' });
 *   await s3.close();
 */
export async function startS3Server(bucket = 'svc-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'svc-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver takes any key pair; the SDK wants one to sign with.
  const credentials = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  return {
    endpoint,
    bucket,
    envFor: (prefix) => ({ BLOB_STORE_URL: `s3://${bucket}/${prefix}`, BLOB_STORE_ENDPOINT: endpoint, ...credentials }),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
