import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '@svc/db/testing';
import { eq } from 'drizzle-orm';
import { SSH_HOST_MAX, SSH_TARGET_NAME_MAX, SSH_USERNAME_MAX } from '@svc/contracts';
import { targets } from '../db/schema.js';
import { generateKeyPair, type KeyPair } from '../testing/openssh-server.js';
import { secretsInLog } from '../testing/secret-scan.js';
import { caller, SshTestService, type Reply } from '../testing/ssh-test-service.js';

/** A key pair's private key in PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
const pkcs8 = (pair: { privateKey: KeyObject }) => pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

const RESPONSE_FIELDS = ['auth_method', 'created_at', 'has_credentials', 'host', 'id', 'known_hosts', 'name', 'port', 'updated_at', 'username'];

describe.each(testDatabaseKinds())('ssh target routes on $name', (kind) => {
  let dir: string;
  let test: SshTestService;
  let key: KeyPair;
  let hostKey: KeyPair;
  const password = 'correct horse battery staple';
  const me = caller();

  const expectError = (reply: Reply, status: number, code: string, field?: string) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body).toMatchObject({ success: false, error: { code } });
    if (field) expect(reply.body.error.details.field).toBe(field);
  };
  const create = (body: Record<string, unknown>, as = me) => test.call('/ssh/targets', { method: 'POST', as, body });
  const valid = () => ({ name: 'build-box', host: 'build.example.com', username: 'deploy', auth_method: 'key', private_key: key.privateKey });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-ssh-routes-'));
    key = await generateKeyPair(dir, ['-t', 'ed25519']);
    hostKey = await generateKeyPair(dir, ['-t', 'ed25519']);
    test = await SshTestService.start({}, kind);
  });

  afterAll(async () => {
    await test?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates (201), lists, reads, updates and deletes (204) a target, with bare bodies and no credential', async () => {
    const created = await create({ ...valid(), name: 'crud' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(RESPONSE_FIELDS);
    expect(created.body).toMatchObject({ name: 'crud', host: 'build.example.com', port: 22, username: 'deploy', auth_method: 'key', has_credentials: true, known_hosts: null });
    const { id } = created.body;

    expect((await test.call('/ssh/targets', { as: me })).body.map((t: { id: string }) => t.id)).toContain(id);
    expect(await test.call(`/ssh/targets/${id}`, { as: me })).toEqual({ status: 200, body: created.body });

    const line = `build.example.com ${hostKey.publicKey}`;
    const updated = await test.call(`/ssh/targets/${id}`, { method: 'PUT', as: me, body: { port: 2222, known_hosts: line, auth_method: 'password', password } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, port: 2222, auth_method: 'password', has_credentials: true, known_hosts: line });
    const [row] = await test.database.db.select().from(targets).where(eq(targets.id, id));
    expect(row!.privateKeyEncrypted).toBeNull();
    expect(row!.passwordEncrypted!.toString('utf8')).not.toContain(password);

    const forgotten = await test.call(`/ssh/targets/${id}`, { method: 'PUT', as: me, body: { known_hosts: null } });
    expect(forgotten.body.known_hosts).toBeNull();

    expect(await test.call(`/ssh/targets/${id}`, { method: 'DELETE', as: me })).toEqual({ status: 204, body: undefined });
    expectError(await test.call(`/ssh/targets/${id}`, { as: me }), 404, 'NOT_FOUND');
    expect(await test.database.db.select().from(targets).where(eq(targets.id, id))).toEqual([]);
  });

  it('keeps names unique per tenant (409) but lets another tenant use the same name', async () => {
    expect((await create({ ...valid(), name: 'shared-name' })).status).toBe(201);
    expectError(await create({ ...valid(), name: 'shared-name' }), 409, 'CONFLICT', 'name');
    expect((await create({ ...valid(), name: 'shared-name' }, caller())).status).toBe(201);
    const other = await create({ ...valid(), name: 'renamed-later' });
    expectError(await test.call(`/ssh/targets/${other.body.id}`, { method: 'PUT', as: me, body: { name: 'shared-name' } }), 409, 'CONFLICT', 'name');
  });

  it("answers 404 for another tenant's target, whatever the method, and lists only the caller's", async () => {
    const mine = await create({ ...valid(), name: 'private-box' });
    const stranger = caller();
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['PUT', '', { port: 2200 }],
      ['DELETE', '', undefined],
      ['POST', '/verify', undefined],
    ] as const) {
      expectError(await test.call(`/ssh/targets/${mine.body.id}${path}`, { method, as: stranger, body }), 404, 'NOT_FOUND');
    }
    expect((await test.call('/ssh/targets', { as: stranger })).body).toEqual([]);
    expect((await test.call(`/ssh/targets/${mine.body.id}`, { as: me })).body.port).toBe(22);
  });

  it('accepts the limits of Part 2 and refuses one past them', async () => {
    const limits = { name: 'a'.repeat(SSH_TARGET_NAME_MAX), host: `${'h'.repeat(63)}.${'h'.repeat(63)}.${'h'.repeat(63)}.${'h'.repeat(61)}`, username: 'u'.repeat(SSH_USERNAME_MAX) };
    expect(limits.host.length).toBe(SSH_HOST_MAX);
    expect((await create({ ...valid(), ...limits, port: 65535 })).status).toBe(201);
    expectError(await create({ ...valid(), name: 'a'.repeat(SSH_TARGET_NAME_MAX + 1) }), 400, 'VALIDATION_FAILED', 'name');
    expectError(await create({ ...valid(), host: `${limits.host}h` }), 400, 'VALIDATION_FAILED', 'host');
    expectError(await create({ ...valid(), username: 'u'.repeat(SSH_USERNAME_MAX + 1) }), 400, 'VALIDATION_FAILED', 'username');
  });

  it.each([
    ['a name not in kebab-case', { name: 'Build_Box' }, 'name'],
    ['a name with a trailing hyphen', { name: 'box-' }, 'name'],
    ['a host that is neither a name nor an address', { host: 'not a host!' }, 'host'],
    ['port 0', { port: 0 }, 'port'],
    ['port 65536', { port: 65536 }, 'port'],
    ['a port as text', { port: '22' }, 'port'],
    ['a username with a space', { username: 'de ploy' }, 'username'],
    ['another auth_method', { auth_method: 'certificate' }, 'auth_method'],
    ['an unknown field', { passphrase: 'x' }, undefined],
    ['a known_hosts of two lines', { known_hosts: 'a ssh-ed25519 AAAA\nb ssh-ed25519 AAAA' }, 'known_hosts'],
    ['a known_hosts with a key that does not parse', { known_hosts: 'host ssh-ed25519 AAAAnotakey' }, 'known_hosts'],
    ['a known_hosts marker', { known_hosts: '@cert-authority *.example.com ssh-ed25519 AAAA' }, 'known_hosts'],
    ['a private key that is not a key', { private_key: 'hello' }, 'private_key'],
  ])('refuses %s (400 naming the field)', async (_label, change, field) => {
    expectError(await create({ ...valid(), name: 'invalid', ...change }), 400, 'VALIDATION_FAILED', field);
  });

  it('requires the credential of the auth_method, and the new one to switch methods', async () => {
    const { private_key: _key, ...withoutKey } = valid();
    expectError(await create(withoutKey), 400, 'VALIDATION_FAILED', 'private_key');
    expectError(await create({ ...withoutKey, auth_method: 'password' }), 400, 'VALIDATION_FAILED', 'password');
    const target = await create({ ...valid(), name: 'switching' });
    expectError(await test.call(`/ssh/targets/${target.body.id}`, { method: 'PUT', as: me, body: { auth_method: 'password' } }), 400, 'VALIDATION_FAILED', 'password');
  });

  it('refuses an encrypted private key with a message that says so, and a public key', async () => {
    const encrypted = await generateKeyPair(dir, ['-t', 'ed25519'], 'a passphrase');
    const reply = await create({ ...valid(), name: 'encrypted', private_key: encrypted.privateKey });
    expectError(reply, 400, 'VALIDATION_FAILED', 'private_key');
    expect(reply.body.error.message).toMatch(/encrypted with a passphrase/);
    expect(reply.body.error.details.reason).toBe('encrypted_key');
    expectError(await create({ ...valid(), name: 'public', private_key: key.publicKey }), 400, 'VALIDATION_FAILED', 'private_key');
  });

  it('accepts PKCS#8 keys (BEGIN PRIVATE KEY, as openssl genpkey writes them) of each type ssh uses', async () => {
    const keys = { ed25519: pkcs8(generateKeyPairSync('ed25519')), rsa: pkcs8(generateKeyPairSync('rsa', { modulusLength: 2048 })), ecdsa: pkcs8(generateKeyPairSync('ec', { namedCurve: 'P-384' })) };
    for (const [type, privateKey] of Object.entries(keys)) {
      expect(privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      const reply = await create({ ...valid(), name: `pkcs8-${type}`, private_key: privateKey });
      expect(reply.status, `${type}: ${JSON.stringify(reply.body)}`).toBe(201);
      expect(reply.body.has_credentials).toBe(true);
    }
  });

  it('refuses a PKCS#8 key that is encrypted, or of a type or curve SSH does not use', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const encrypted = privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'a passphrase' }).toString();
    const reply = await create({ ...valid(), name: 'pkcs8-encrypted', private_key: encrypted });
    expectError(reply, 400, 'VALIDATION_FAILED', 'private_key');
    expect(reply.body.error.details.reason).toBe('encrypted_key');
    for (const other of [generateKeyPairSync('ed448'), generateKeyPairSync('ec', { namedCurve: 'secp256k1' })]) {
      const refused = await create({ ...valid(), name: 'pkcs8-other', private_key: pkcs8(other) });
      expectError(refused, 400, 'VALIDATION_FAILED', 'private_key');
      expect(refused.body.error.details.reason).toBe('unsupported_key_type');
    }
    expectError(await create({ ...valid(), name: 'pkcs8-broken', private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }), 400, 'VALIDATION_FAILED', 'private_key');
  });

  it('never sends a refused credential back: no error body of a refused write carries any of it', async () => {
    const secret = `hunter2-${Date.now()}`;
    const keyLike = `-----BEGIN OPENSSH PRIVATE KEY-----\n${secret}\n-----END OPENSSH PRIVATE KEY-----\n`;
    const target = await create({ ...valid(), name: 'credential-echo' });
    const put = (body: unknown) => test.call(`/ssh/targets/${target.body.id}`, { method: 'PUT', as: me, body });
    const refusals = [
      await create({ ...valid(), name: 'echo-1', auth_method: 'password', private_key: undefined, password: `${secret}\u0000` }),
      await create({ ...valid(), name: 'echo-2', private_key: keyLike }),
      await create({ ...valid(), name: 'echo-3', private_key: secret }),
      await create({ ...valid(), name: 'Echo_4', auth_method: 'password', private_key: undefined, password: secret }),
      await create({ ...valid(), name: 'echo-5', private_key: [secret] }),
      await test.call('/ssh/targets', { method: 'POST', as: me, raw: `{"name":"echo-6","auth_method":"password","password":${secret}}` }),
      await test.call('/ssh/targets', { method: 'POST', as: me, body: secret }),
      await put({ password: `${secret}\u0000`, auth_method: 'password' }),
      await put({ private_key: keyLike }),
      await put({ password: secret, extra: true }),
    ];
    for (const reply of refusals) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(JSON.stringify(reply.body)).not.toContain('hunter2');
    }
  });

  it('answers 400 for a malformed id and 401 without an identity', async () => {
    expectError(await test.call('/ssh/targets/not-a-uuid', { as: me }), 400, 'VALIDATION_FAILED');
    expectError(await test.call('/ssh/targets'), 401, 'AUTHENTICATION_FAILED');
  });

  it('never answered or logged a credential', async () => {
    const rows = await test.database.db.select().from(targets);
    const sealed = rows.flatMap((row) => [row.privateKeyEncrypted, row.passwordEncrypted]).filter((value): value is Buffer => value !== null);
    const list = (await test.call('/ssh/targets', { as: me })).body as Record<string, unknown>[];
    for (const target of list) expect(Object.keys(target).sort()).toEqual(RESPONSE_FIELDS);
    const listed = JSON.stringify(list);
    for (const secret of [key.privateKey, password, ...sealed.map((value) => value.toString('base64'))]) expect(listed).not.toContain(secret);
    expect(secretsInLog(test.entries, [key.privateKey, password, ...sealed.flatMap((value) => [value.toString('base64'), value.toString('hex')])])).toEqual([]);
  });
});
