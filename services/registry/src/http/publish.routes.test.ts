import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '@svc/auth';
import { ephemeralQueueName, type BusMessage } from '@svc/bus';
import { generateKeyPairSync } from 'node:crypto';
import { createPackWheel, keyFingerprint, MAX_PACKAGE_BYTES, parseManifest, signPackage } from '@svc/pack-sdk';
import { org, person, startRegistry, type RegistryHarness } from '../testing/harness.js';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';

const gzip = promisify(gzipCallback);

async function withEntry(name: string, content: string): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  archive.entry({ name: 'pack.yaml' }, JSON.stringify({ schema_version: 1, pack: { namespace: 'ada', name: 'evil', version: '1.0.0' }, commands: [{ name: 'x', entry: 'x.js', input_schema: { type: 'object' } }] }));
  archive.entry({ name: 'x.js' }, 'export default () => 1;');
  archive.entry({ name }, content);
  archive.finalize();
  await done;
  return gzip(Buffer.concat(chunks));
}

describe('POST /api/v1/registry/packs', () => {
  let h: RegistryHarness;
  const acme = org('acme');
  const ada = person('ada', { orgs: [acme] });
  const consumer = person('carl', { developer: false });
  const events: BusMessage[] = [];

  beforeAll(async () => {
    h = await startRegistry();
    await h.bus.subscribe(ephemeralQueueName('test.registry-events'), ['pack.*'], async (message) => {
      events.push(message);
    }, { ephemeral: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const upload = (identity: Identity, bytes: Buffer, field = 'package') => h.http(identity).post('/api/v1/registry/packs').attach(field, bytes, 'pack.tar.gz');
  const publish = async (identity: Identity, p: TestPack) => upload(identity, await packageOf(p));

  function expectError(reply: { status: number; body: any }, status: number, code: string) {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body.success).toBe(false);
    expect(reply.body.error.code).toBe(code);
    expect(reply.body.error.message.length).toBeGreaterThan(10);
  }

  it('stores a valid package as a new version and announces it', async () => {
    const reply = await publish(ada, { namespace: 'ada', name: 'text-tools', commands: [{ name: 'echo' }, { name: 'shout' }] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data.pack).toMatchObject({ namespace: 'ada', name: 'text-tools', version: '1.0.0', visibility: 'public', commands: ['echo', 'shout'] });
    expect(reply.body.data.pack.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await readdir(join(h.blobDir, 'packs/ada/text-tools'))).toEqual([`${reply.body.data.pack.version_id}.tar.gz`]);
    await expect.poll(() => events.find((e) => e.name === 'pack.published')?.payload).toMatchObject({ namespace: 'ada', name: 'text-tools', version: '1.0.0', tenant_id: ada.tenantId });
  });

  it("publishes to an organization's namespace for its members", async () => {
    const reply = await publish(ada, { namespace: 'acme', name: 'org-tools' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  });

  describe('signed packages', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const signedUpload = (bytes: Buffer, fields: Record<string, string>) => {
      let test = h.http(ada).post('/api/v1/registry/packs').attach('package', bytes, 'pack.tar.gz');
      for (const [name, value] of Object.entries(fields)) test = test.field(name, value);
      return test;
    };

    it('verifies an Ed25519 signature sent beside the package and answers its key fingerprint', async () => {
      const bytes = await packageOf({ namespace: 'ada', name: 'signed-tools' });
      const signature = signPackage(bytes, privateKey);
      const reply = await signedUpload(bytes, { signature: signature.signature, public_key: signature.public_key });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.data.pack.signature).toEqual({ algorithm: 'ed25519', key_fingerprint: keyFingerprint(signature.public_key) });
    });

    it('answers signature null for an unsigned package', async () => {
      const reply = await publish(ada, { namespace: 'ada', name: 'unsigned-tools' });
      expect(reply.body.data.pack.signature).toBeNull();
    });

    it('refuses a signature of other bytes, another key, or half a signature with SIGNATURE_INVALID and keeps nothing', async () => {
      const bytes = await packageOf({ namespace: 'ada', name: 'forged-tools' });
      const ofOther = signPackage(await packageOf({ namespace: 'ada', name: 'forged-tools', version: '9.9.9' }), privateKey);
      const otherKey = signPackage(bytes, generateKeyPairSync('ed25519').privateKey);
      const cases: Array<Record<string, string>> = [
        { signature: ofOther.signature, public_key: ofOther.public_key },
        { signature: signPackage(bytes, privateKey).signature, public_key: otherKey.public_key },
        { signature: ofOther.signature },
        { signature: 'not base64!', public_key: ofOther.public_key },
        { signature: ofOther.signature, public_key: Buffer.from('short key').toString('base64') },
      ];
      for (const fields of cases) expectError(await signedUpload(bytes, fields), 400, 'SIGNATURE_INVALID');
      await expect(readdir(join(h.blobDir, 'packs/ada/forged-tools'))).rejects.toThrow();
    });
  });

  it('refuses an account in consumer mode with PERMISSION_DENIED', async () => {
    const reply = await publish(consumer, { namespace: 'carl', name: 'tools' });
    expectError(reply, 403, 'PERMISSION_DENIED');
    expect(reply.body.error.details.reason).toBe('developer_mode_required');
  });

  it("refuses someone else's namespace with PERMISSION_DENIED", async () => {
    const reply = await publish(ada, { namespace: 'bob', name: 'tools' });
    expectError(reply, 403, 'PERMISSION_DENIED');
    expect(reply.body.error.details).toMatchObject({ reason: 'namespace_not_owned', namespace: 'bob' });
  });

  it('refuses a second upload of the same version with VERSION_EXISTS and keeps no file of it', async () => {
    const first = await publish(ada, { namespace: 'ada', name: 'immutable' });
    expect(first.status).toBe(201);
    expectError(await publish(ada, { namespace: 'ada', name: 'immutable', commands: [{ name: 'other' }] }), 409, 'VERSION_EXISTS');
    expect(await readdir(join(h.blobDir, 'packs/ada/immutable'))).toHaveLength(1);
  });

  it.each([
    ['a bad manifest', 'MANIFEST_INVALID', { namespace: 'ada', name: 'Bad_Name' }],
    ['a missing entry file', 'ENTRY_MISSING', { namespace: 'ada', name: 'no-entry', files: { 'commands/no-entry.js': null } }],
    ['an invalid input schema', 'INPUT_SCHEMA_INVALID', { namespace: 'ada', name: 'bad-schema', commands: [{ name: 'echo', input_schema: { type: 'object', properties: { a: { type: 'strin' } } } }] }],
    ['an entry outside the package', 'PACKAGE_PATH_INVALID', { namespace: 'ada', name: 'escape', commands: [{ name: 'echo', entry: '../../echo.js' }], files: { '../../echo.js': null } }],
    ['a tool name over 64 characters', 'MANIFEST_INVALID', { namespace: 'ada', name: 'p'.repeat(40), commands: [{ name: 'c'.repeat(20) }] }],
  ] as const)('refuses %s with 400 %s', async (_label, code, p) => {
    expectError(await publish(ada, p as TestPack), 400, code);
  });

  it('answers every problem of a package at once in details.issues: the manifest\'s and the missing entries', async () => {
    const reply = await publish(ada, { namespace: 'ada', name: 'Bad_Name', commands: [{ name: 'echo' }, { name: 'shout' }], files: { 'commands/echo.js': null, 'commands/shout.js': null } });
    expectError(reply, 400, 'MANIFEST_INVALID');
    const issues = reply.body.error.details.issues as Array<{ code: string; field: string }>;
    expect(issues.map((issue) => `${issue.code} ${issue.field}`)).toEqual(expect.arrayContaining(['MANIFEST_INVALID pack.name', 'ENTRY_MISSING commands.0.entry', 'ENTRY_MISSING commands.1.entry']));
    expect(reply.body.error.message).toContain(`(and ${issues.length - 1} more)`);
  });

  it('refuses a tar entry that escapes the package with PACKAGE_PATH_INVALID', async () => {
    const reply = await upload(ada, await withEntry('../../etc/cron.d/evil', 'x'));
    expectError(reply, 400, 'PACKAGE_PATH_INVALID');
    expect(reply.body.error.details.entry).toBe('../../etc/cron.d/evil');
  });

  it('refuses an upload that is not a gzip with PACKAGE_INVALID', async () => {
    expectError(await upload(ada, Buffer.from('PK\u0003\u0004 a zip, not a tarball')), 400, 'PACKAGE_INVALID');
  });

  it(`reads a package of exactly ${MAX_PACKAGE_BYTES} bytes and refuses one byte more with PAYLOAD_TOO_LARGE`, async () => {
    const atLimit = Buffer.alloc(MAX_PACKAGE_BYTES, 'x');
    // Within the limit it is read, and then found not to be a gzip.
    expectError(await upload(ada, atLimit), 400, 'PACKAGE_INVALID');
    const over = await upload(ada, Buffer.alloc(MAX_PACKAGE_BYTES + 1, 'x'));
    expectError(over, 413, 'PAYLOAD_TOO_LARGE');
    expect(over.body.error.details.limit_bytes).toBe(MAX_PACKAGE_BYTES);
  });

  it('asks for the multipart field "package" when the file comes under another name, or not at all', async () => {
    const tarball = await packageOf({ namespace: 'ada', name: 'fields' });
    expectError(await upload(ada, tarball, 'file'), 400, 'PACKAGE_INVALID');
    expectError(await h.http(ada).post('/api/v1/registry/packs').field('name', 'x'), 400, 'PACKAGE_INVALID');
    const json = await h.http(ada).post('/api/v1/registry/packs').send({ package: 'x' });
    expectError(json, 400, 'PACKAGE_INVALID');
    expect(json.body.error.message).toContain('multipart/form-data');
  });

  it('refuses a caller without an identity with AUTHENTICATION_FAILED', async () => {
    expectError(await h.http().post('/api/v1/registry/packs').attach('package', Buffer.from('x'), 'p.tar.gz'), 401, 'AUTHENTICATION_FAILED');
  });
});

describe('POST /api/v1/registry/packs: Python packs', () => {
  let h: RegistryHarness;
  const ada = person('ada');

  beforeAll(async () => {
    h = await startRegistry();
  });
  afterAll(async () => {
    await h?.stop();
  });

  function pythonPack(version: string, python: string, files: Record<string, string | Buffer> = {}) {
    const manifest = `schema_version: 1
pack: { namespace: ada, name: snake, version: ${version}, visibility: public }
runtime: python
python: "${python}"
commands:
  - { name: hiss, entry: "snake.hiss:run", input_schema: { type: object } }
`;
    const all = { 'pack.yaml': manifest, 'snake/__init__.py': '', 'snake/hiss.py': 'def run(input, ctx):\n    return "hiss"\n', ...files };
    return createPackWheel(all, parseManifest(manifest)).wheel;
  }
  const upload = (bytes: Buffer) => h.http(ada).post('/api/v1/registry/packs').attach('package', bytes, 'snake.whl');

  it('publishes a wheel whose python range the platform meets, and keeps it as uploaded', async () => {
    const wheel = pythonPack('1.0.0', '>=3.8');
    const reply = await upload(wheel);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data.pack).toMatchObject({ name: 'snake', version: '1.0.0', commands: ['hiss'], size_bytes: wheel.length });
    expect(await readdir(join(h.blobDir, 'packs/ada/snake'))).toEqual([`${reply.body.data.pack.version_id}.whl`]);
  });

  it('refuses a python range no interpreter of the platform meets, naming the version it runs', async () => {
    const reply = await upload(pythonPack('2.0.0', '>=4'));
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'MANIFEST_INVALID', details: { field: 'python', python: '>=4', platform_python: expect.stringMatching(/^3\.\d+\.\d+$/) } });
    expect(reply.body.error.message).toMatch(/^pack\.yaml: python: ">=4" can never be met here: this platform runs Python packs on Python 3\./);
  });

  it('refuses a vendored wheel of native code built for another machine or Python, with what it was built for', async () => {
    const reply = await upload(pythonPack('3.0.0', '>=3.8', { 'vendor/fastlib-1.0-cp39-cp39-win_amd64.whl': Buffer.alloc(0) }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'PACKAGE_INVALID', details: { field: 'vendor', wheels: [{ path: 'vendor/fastlib-1.0-cp39-cp39-win_amd64.whl' }] } });
    expect(reply.body.error.message).toContain('is built for cp39-cp39-win_amd64; this platform runs Python 3.');
  });
});
