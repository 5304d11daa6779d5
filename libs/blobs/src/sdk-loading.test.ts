import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3Server, type S3TestServer } from '@svc/testing';

// The AWS SDK's modules, as this file's imports load them: a store of files must load none.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@aws-sdk/client-s3', async (original) => {
  loaded.add('@aws-sdk/client-s3');
  return original();
});
vi.mock('@aws-sdk/lib-storage', async (original) => {
  loaded.add('@aws-sdk/lib-storage');
  return original();
});

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());

describe('the AWS SDK', () => {
  it('is not loaded by a process whose blobs are files', async () => {
    const { createBlobStore } = await import('./index.js');
    const local = await mkdtemp(join(tmpdir(), 'svc-blobs-sdk-'));
    try {
      const blobs = createBlobStore({ localDir: local });
      await blobs.put('packs/a/v.tar.gz', Buffer.from('local'));
      expect((await blobs.get('packs/a/v.tar.gz'))?.toString()).toBe('local');
      expect([...loaded]).toEqual([]);
    } finally {
      await rm(local, { recursive: true, force: true });
    }
  });

  it("is loaded by a bucket's store with its first call, which then reaches the bucket", async () => {
    const { createS3BlobStore } = await import('./index.js');
    const blobs = createS3BlobStore({
      client: { region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } },
      bucket: s3.bucket,
      prefix: 'sdk-loading/',
    });
    expect([...loaded]).toEqual([]);
    await blobs.put('packs/b/v.tar.gz', Buffer.from('bucket'));
    expect([...loaded].sort()).toEqual(['@aws-sdk/client-s3', '@aws-sdk/lib-storage']);
    expect((await blobs.get('packs/b/v.tar.gz'))?.toString()).toBe('bucket');
  });
});
