import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '@svc/testing';
import type { BlobStore } from './blob-store.js';
import { createBlobStore } from './create-blob-store.js';
import { createFileSystemBlobStore } from './file-system-blob-store.js';
import { createS3BlobStore } from './s3-blob-store.js';

/** Where a backend's blobs are, for the checks that look behind the interface. */
interface Backend {
  blobs: BlobStore;
  /** The names stored directly under `folder`, temporary files included. */
  listed(folder: string): Promise<string[]>;
}

let s3: S3TestServer;
let client: S3Client;
beforeAll(async () => {
  s3 = await startS3Server();
  client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});

const BACKENDS: [string, () => Promise<Backend & { remove(): Promise<void> }>][] = [
  [
    'filesystem',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'svc-blobs-'));
      return {
        blobs: createFileSystemBlobStore(root),
        listed: (folder) => readdir(join(root, folder)).catch(() => []),
        remove: () => rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      const prefix = `run-${randomUUID()}/`;
      const listed = async (folder: string) => {
        const under = `${prefix}${folder}/`;
        const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: under }));
        return [...new Set((page.Contents ?? []).map((object) => object.Key!.slice(under.length).split('/')[0]!))];
      };
      return { blobs: createS3BlobStore({ client, bucket: s3.bucket, prefix }), listed, remove: async () => undefined };
    },
  ],
];

describe.each(BACKENDS)('%s blob store', (_kind, make) => {
  let blobs: BlobStore;
  let backend: Backend & { remove(): Promise<void> };

  beforeEach(async () => {
    backend = await make();
    blobs = backend.blobs;
  });
  afterEach(async () => {
    await backend.remove();
  });

  it('stores, reads back and deletes bytes under a nested key, leaving no temporary file', async () => {
    await blobs.put('packs/p1/v1.tar.gz', Buffer.from('package'));
    expect((await blobs.get('packs/p1/v1.tar.gz'))?.toString()).toBe('package');
    expect(await backend.listed('packs/p1')).toEqual(['v1.tar.gz']);
    await blobs.delete('packs/p1/v1.tar.gz');
    expect(await blobs.get('packs/p1/v1.tar.gz')).toBeUndefined();
  });

  it('treats a missing key as absent, for reads and deletes alike', async () => {
    expect(await blobs.get('packs/none.tar.gz')).toBeUndefined();
    await expect(blobs.delete('packs/none.tar.gz')).resolves.toBeUndefined();
  });

  it('streams bytes in and ranges of them out, states their size and removes a whole prefix', async () => {
    await blobs.putStream('dashboards/d1/v1/main.js', Readable.from([Buffer.from('export const '), Buffer.from('mount = 1;')]));
    await blobs.put('dashboards/d1/v1/assets/app.css', Buffer.from('body{}'));
    expect(await blobs.stat('dashboards/d1/v1/main.js')).toEqual({ size: 23 });
    expect(await text((await blobs.open('dashboards/d1/v1/main.js'))!)).toBe('export const mount = 1;');
    expect(await text((await blobs.open('dashboards/d1/v1/main.js', { start: 7, end: 11 }))!)).toBe('const');
    expect(await blobs.stat('dashboards/d1/v1/assets')).toBeUndefined();
    await blobs.put('dashboards/d10/v1/main.js', Buffer.from('kept'));
    await blobs.deletePrefix('dashboards/d1');
    expect((await blobs.get('dashboards/d10/v1/main.js'))?.toString()).toBe('kept');
    expect(await backend.listed('dashboards')).toEqual(['d10']);
    expect(await blobs.open('dashboards/d1/v1/main.js')).toBeUndefined();
    expect(await blobs.stat('dashboards/d1/v1/main.js')).toBeUndefined();
  });

  it('leaves nothing behind when a streamed write fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(blobs.putStream('dashboards/d2/v1/main.js', failing)).rejects.toThrow('client went away');
    expect(await backend.listed('dashboards/d2/v1')).toEqual([]);
    expect(await blobs.stat('dashboards/d2/v1/main.js')).toBeUndefined();
  });

  it.each(['../escape', 'packs/../../escape', '/absolute', 'packs//double', 'a\\b', '', 'packs/.'])('refuses the key %s', async (key) => {
    await expect(blobs.put(key, Buffer.from('x'))).rejects.toThrow('Invalid blob key');
    await expect(blobs.get(key)).rejects.toThrow('Invalid blob key');
    await expect(blobs.deletePrefix(key)).rejects.toThrow('Invalid blob key');
  });

  it('streams a blob larger than one upload part whole', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024 + 5, 7);
    await blobs.putStream('packs/p2/v1.tar.gz', Readable.from([big.subarray(0, 1024), big.subarray(1024)]));
    expect(await blobs.stat('packs/p2/v1.tar.gz')).toEqual({ size: big.length });
    expect((await blobs.get('packs/p2/v1.tar.gz'))!.equals(big)).toBe(true);
  });
});

describe('createBlobStore', () => {
  it('keeps blobs in the local folder without a URL, in a shared one for file:, and in a bucket for s3:', async () => {
    const local = await mkdtemp(join(tmpdir(), 'svc-blobs-local-'));
    const shared = await mkdtemp(join(tmpdir(), 'svc-blobs-shared-'));
    try {
      await createBlobStore({ localDir: local }).put('packs/a/v.tar.gz', Buffer.from('local'));
      expect(await readdir(join(local, 'packs/a'))).toEqual(['v.tar.gz']);
      await createBlobStore({ url: `file://${shared}`, localDir: local }).put('packs/b/v.tar.gz', Buffer.from('shared'));
      expect(await readdir(join(shared, 'packs/b'))).toEqual(['v.tar.gz']);

      const env = s3.envFor('replicas');
      const previous = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
      Object.assign(process.env, { AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY });
      try {
        const bucket = createBlobStore({ url: env.BLOB_STORE_URL, endpoint: env.BLOB_STORE_ENDPOINT, localDir: local });
        await bucket.put('packs/c/v.tar.gz', Buffer.from('bucket'));
        const seen = await createS3BlobStore({ client, bucket: s3.bucket, prefix: 'replicas/' }).get('packs/c/v.tar.gz');
        expect(seen?.toString()).toBe('bucket');
      } finally {
        for (const [name, value] of [['AWS_ACCESS_KEY_ID', previous.id], ['AWS_SECRET_ACCESS_KEY', previous.secret]] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    } finally {
      await rm(local, { recursive: true, force: true });
      await rm(shared, { recursive: true, force: true });
    }
  });

  it.each(['http://bucket/x', 's3:///no-bucket', 'ftp://host/p'])('refuses the URL %s', (url) => {
    expect(() => createBlobStore({ url, localDir: '/tmp' })).toThrow('BLOB_STORE_URL');
  });
});
