import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '@svc/db/testing';
import { SSH_EXEC_RPC, SSH_OUTPUT_MAX_BYTES } from '@svc/contracts';
import { freePort } from '@svc/testing';
import { targets } from '../db/schema.js';
import { readablePrivateKey } from '../services/key-material.js';
import { generateKeyPair, KEY_KINDS, OpenSshServer, SSHD, type KeyPair } from '../testing/openssh-server.js';
import { secretsInLog } from '../testing/secret-scan.js';
import { Ssh2TestServer } from '../testing/ssh2-server.js';
import { caller, LOOPBACK_CIDRS, newSshKey, SshTestService } from '../testing/ssh-test-service.js';

const run = promisify(execFile);

/** The fingerprint OpenSSH itself prints for a public key line. */
async function sshKeygenFingerprint(dir: string, publicKey: string): Promise<string> {
  const file = join(dir, `fp-${randomUUID()}.pub`);
  await writeFile(file, `${publicKey}\n`);
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', file]);
  return stdout.split(' ')[1]!;
}

describe.skipIf(!existsSync(SSHD)).each(testDatabaseKinds())('ssh targets running commands on $name', (kind) => {
  let dir: string;
  let test: SshTestService;
  let sshd: OpenSshServer;
  const secrets: string[] = [];
  const tenant = caller();

  const exec = (target: string, command: string, options: { timeoutMs?: number; tenantId?: string } = {}) =>
    test.bus.request(SSH_EXEC_RPC, { tenantId: options.tenantId ?? tenant.tenantId, target, command, timeoutMs: options.timeoutMs ?? 10_000 }, { timeoutMs: 30_000 });

  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the command should have failed'),
      (err: { code: string; message: string; details: Record<string, unknown> }) => err,
    );

  async function createTarget(body: Record<string, unknown>, as = tenant) {
    const reply = await test.call('/ssh/targets', { method: 'POST', as, body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body as { id: string; name: string };
  }

  /** Registers the target, verifies it (TOFU) and stores the line of the fingerprint shown. */
  async function trust(id: string, knownHosts: string, expectedFingerprint: string, as = tenant) {
    const verified = await test.call(`/ssh/targets/${id}/verify`, { method: 'POST', as });
    expect(verified).toEqual({ status: 200, body: { connected: true, fingerprint: expectedFingerprint } });
    const updated = await test.call(`/ssh/targets/${id}`, { method: 'PUT', as, body: { known_hosts: knownHosts } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-ssh-test-'));
    test = await SshTestService.start({ idleSeconds: 60, allowedCidrs: LOOPBACK_CIDRS }, kind);
    sshd = await OpenSshServer.start();
  });

  afterAll(async () => {
    await test?.dispose();
    await sshd?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  describe('on OpenSSH', () => {
    it.each(KEY_KINDS.map((kind, index) => ({ ...kind, index })))('logs in with an $label key, after trust on first use', async ({ label, generate, index }) => {
      const key = await generate(dir);
      if (label.includes('PKCS#8')) expect(key.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      secrets.push(key.privateKey);
      await sshd.authorize(key.publicKey);
      const target = await createTarget({ name: `openssh-${index}`, host: '127.0.0.1', port: sshd.port, username: sshd.username, auth_method: 'key', private_key: key.privateKey });
      await trust(target.id, sshd.knownHostsLine, await sshKeygenFingerprint(dir, sshd.hostKey.publicKey));

      const result = await exec(target.name, 'echo hello; echo oops >&2; exit 7');
      expect(result).toEqual({ stdout: 'hello\n', stderr: 'oops\n', exit_code: 7, truncated: false });
    });

    it('refuses to run a command on a target without a stored host key', async () => {
      const key = await generateKeyPair(dir, ['-t', 'ed25519']);
      secrets.push(key.privateKey);
      await sshd.authorize(key.publicKey);
      await createTarget({ name: 'unverified', host: '127.0.0.1', port: sshd.port, username: sshd.username, auth_method: 'key', private_key: key.privateKey });
      const err = await failureOf(exec('unverified', 'echo hi'));
      expect(err).toMatchObject({ code: 'SSH_HOST_KEY_MISSING', message: 'no host key fingerprint stored', details: { target: 'unverified' } });
    });

    it('answers "SSH target not found" for a name the tenant has not registered', async () => {
      const err = await failureOf(exec('no-such-target', 'echo hi'));
      expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'SSH target not found', details: { target: 'no-such-target' } });
    });

    it('stops a command past its timeout with "command timed out", and the connection serves the next one', async () => {
      const err = await failureOf(exec('openssh-0', 'sleep 5', { timeoutMs: 300 }));
      expect(err).toMatchObject({ code: 'TIMEOUT', message: 'command timed out' });
      expect(await exec('openssh-0', 'echo after')).toMatchObject({ stdout: 'after\n', exit_code: 0 });
    });

    it("runs more commands at once than OpenSSH's sessions per connection (MaxSessions 10)", async () => {
      // Each waits for a session of its own, on a machine the rest of the suite shares: time enough.
      const results = await Promise.all(Array.from({ length: 15 }, (_, n) => exec('openssh-0', `sleep 0.2; echo ${n}`, { timeoutMs: 25_000 })));
      expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 15 }, (_, n) => `${n}\n`));
    });

    it('keeps the first 256 KiB of each stream and says it cut the rest', async () => {
      const result = await exec('openssh-0', `head -c ${SSH_OUTPUT_MAX_BYTES + 1000} /dev/zero | tr '\\0' x`);
      expect(result.stdout.length).toBe(SSH_OUTPUT_MAX_BYTES);
      expect(result.truncated).toBe(true);
    });

    it('fails with "connection failed" when nothing listens on the port', async () => {
      const key = await generateKeyPair(dir, ['-t', 'ed25519']);
      secrets.push(key.privateKey);
      const port = await freePort();
      const target = await createTarget({ name: 'nobody-home', host: '127.0.0.1', port, username: 'x', auth_method: 'key', private_key: key.privateKey, known_hosts: sshd.knownHostsLine });
      const err = await failureOf(exec(target.name, 'echo hi'));
      expect(err).toMatchObject({ code: 'SSH_CONNECTION_FAILED', message: 'connection failed', details: { reason: 'refused', target: 'nobody-home' } });
      const verified = await test.call(`/ssh/targets/${target.id}/verify`, { method: 'POST', as: tenant });
      expect(verified.status).toBe(502);
      expect(verified.body.error).toMatchObject({ code: 'SSH_CONNECTION_FAILED', message: 'connection failed', details: { reason: 'refused' } });
    });

    it("does not let a second tenant see or use the first tenant's target", async () => {
      const other = caller();
      const err = await failureOf(exec('openssh-0', 'echo hi', { tenantId: other.tenantId }));
      expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'SSH target not found' });
      expect((await test.call('/ssh/targets', { as: other })).body).toEqual([]);
    });

    it('refuses a server whose host key changed ("connection failed", host_key_mismatch)', async () => {
      const key = await generateKeyPair(dir, ['-t', 'ed25519']);
      secrets.push(key.privateKey);
      await sshd.authorize(key.publicKey);
      const target = await createTarget({ name: 'rekeyed', host: '127.0.0.1', port: sshd.port, username: sshd.username, auth_method: 'key', private_key: key.privateKey, known_hosts: sshd.knownHostsLine });
      expect(await exec(target.name, 'echo before')).toMatchObject({ stdout: 'before\n' });

      await sshd.restart({ newHostKey: true });
      test.service.pool.close();
      const err = await failureOf(exec(target.name, 'echo after'));
      expect(err).toMatchObject({ code: 'SSH_CONNECTION_FAILED', message: 'connection failed', details: { reason: 'host_key_mismatch' } });
      expect(test.entries.some((entry) => entry.message === 'ssh connection failed' && entry.reason === 'host_key_mismatch')).toBe(true);

      // The user verifies again, sees the new fingerprint and trusts it.
      await trust(target.id, sshd.knownHostsLine, await sshKeygenFingerprint(dir, sshd.hostKey.publicKey));
      expect(await exec(target.name, 'echo trusted')).toMatchObject({ stdout: 'trusted\n' });
    });
  });

  describe('on an OpenSSH server that allows fewer sessions', () => {
    const servers: OpenSshServer[] = [];
    afterAll(() => Promise.all(servers.map((server) => server.dispose())));

    async function targetOn(name: string, maxSessions: number) {
      const server = await OpenSshServer.start({ maxSessions });
      servers.push(server);
      const key = await generateKeyPair(dir, ['-t', 'ed25519']);
      secrets.push(key.privateKey);
      await server.authorize(key.publicKey);
      await createTarget({ name, host: '127.0.0.1', port: server.port, username: server.username, auth_method: 'key', private_key: key.privateKey, known_hosts: server.knownHostsLine });
    }

    it('runs every command of a burst on a server with MaxSessions 2: a refused channel is tried again', async () => {
      await targetOn('two-sessions', 2);
      const results = await Promise.all(Array.from({ length: 6 }, (_, n) => exec('two-sessions', `echo ${n}`)));
      expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 6 }, (_, n) => `${n}\n`));
    });

    it('fails with "connection failed" (channel_refused) where the server refuses every command', async () => {
      await targetOn('no-sessions', 0);
      const err = await failureOf(exec('no-sessions', 'echo hi'));
      expect(err).toMatchObject({ code: 'SSH_CONNECTION_FAILED', message: 'connection failed', details: { reason: 'channel_refused', target: 'no-sessions' } });
    });
  });

  describe('on an ssh2 server', () => {
    let server: Ssh2TestServer;
    let hostKey: KeyPair;
    const password = `pw-${randomUUID()}`;

    beforeAll(async () => {
      hostKey = await generateKeyPair(dir, ['-t', 'ecdsa', '-b', '256']);
      const clientKey = await generateKeyPair(dir, ['-t', 'ed25519']);
      secrets.push(password, clientKey.privateKey, hostKey.privateKey);
      server = await Ssh2TestServer.start(hostKey.privateKey, { username: 'deploy', password, publicKey: clientKey.publicKey });
      const keyTarget = await createTarget({ name: 'ssh2-key', host: '127.0.0.1', port: server.port, username: 'deploy', auth_method: 'key', private_key: clientKey.privateKey });
      await trust(keyTarget.id, `127.0.0.1 ${hostKey.publicKey}`, await sshKeygenFingerprint(dir, hostKey.publicKey));
    });

    afterAll(() => server?.close());

    it('logs in with a password, after trust on first use', async () => {
      const target = await createTarget({ name: 'ssh2-password', host: 'localhost', port: server.port, username: 'deploy', auth_method: 'password', password });
      await trust(target.id, `localhost ${hostKey.publicKey}`, await sshKeygenFingerprint(dir, hostKey.publicKey));
      expect(await exec('ssh2-password', 'echo by password')).toEqual({ stdout: 'by password\n', stderr: '', exit_code: 0, truncated: false });
      expect(await exec('ssh2-password', 'fail')).toEqual({ stdout: '', stderr: 'it failed\n', exit_code: 3, truncated: false });
    });

    it('answers connected: false with the fingerprint when the credential is refused', async () => {
      const target = await createTarget({ name: 'ssh2-wrong', host: '127.0.0.1', port: server.port, username: 'deploy', auth_method: 'password', password: 'not-the-password' });
      const verified = await test.call(`/ssh/targets/${target.id}/verify`, { method: 'POST', as: tenant });
      expect(verified).toEqual({ status: 200, body: { connected: false, fingerprint: await sshKeygenFingerprint(dir, hostKey.publicKey) } });
      await test.call(`/ssh/targets/${target.id}`, { method: 'PUT', as: tenant, body: { known_hosts: `127.0.0.1 ${hostKey.publicKey}` } });
      const err = await failureOf(exec('ssh2-wrong', 'echo hi'));
      expect(err).toMatchObject({ message: 'connection failed', details: { reason: 'authentication_failed' } });
    });

    it('runs commands with a key and shares one connection between them', async () => {
      const results = await Promise.all([1, 2, 3].map((n) => exec('ssh2-key', `echo ${n}`)));
      expect(results.map((r) => r.stdout)).toEqual(['1\n', '2\n', '3\n']);
      expect(test.service.pool.size).toBeGreaterThan(0);
      const before = server.connections;
      await exec('ssh2-key', 'echo again');
      expect(server.connections).toBe(before);
    });

    it('times out a command with "command timed out"', async () => {
      const err = await failureOf(exec('ssh2-key', 'sleep 5', { timeoutMs: 200 }));
      expect(err).toMatchObject({ code: 'TIMEOUT', message: 'command timed out' });
    });

    it('closes an idle connection after the idle timeout', async () => {
      const quick = await SshTestService.start({ idleSeconds: 1, allowedCidrs: LOOPBACK_CIDRS }, kind);
      try {
        const target = (await quick.call('/ssh/targets', { method: 'POST', as: tenant, body: { name: 'idle', host: '127.0.0.1', port: server.port, username: 'deploy', auth_method: 'password', password, known_hosts: `127.0.0.1 ${hostKey.publicKey}` } })).body;
        const before = server.connections;
        await quick.bus.request(SSH_EXEC_RPC, { tenantId: tenant.tenantId, target: target.name, command: 'echo hi', timeoutMs: 5000 }, { timeoutMs: 20_000 });
        const used = Date.now();
        expect(quick.service.pool.size).toBe(1);
        // Closed after the idle second, not before: a timer fires late on a loaded machine, never
        // early, so the bound is a floor (less the moment between the release and \`used\`).
        await expect.poll(() => quick.service.pool.size, { timeout: 15_000, interval: 50 }).toBe(0);
        expect(Date.now() - used).toBeGreaterThanOrEqual(900);
        await expect.poll(() => server.connections).toBe(before);
      } finally {
        await quick.dispose();
      }
    });
  });

  describe('key rotation', () => {
    it('opens credentials sealed under the configured key itself (before keys were derived) and re-seals them at start', async () => {
      const configured = newSshKey();
      const legacy = await SshTestService.start({ encryptionKey: configured, allowedCidrs: LOOPBACK_CIDRS }, kind);
      try {
        const key = await generateKeyPair(dir, ['-t', 'ed25519']);
        secrets.push(key.privateKey);
        await sshd.authorize(key.publicKey);
        const created = await legacy.call('/ssh/targets', { method: 'POST', as: tenant, body: { name: 'legacy', host: '127.0.0.1', port: sshd.port, username: sshd.username, auth_method: 'key', private_key: key.privateKey, known_hosts: sshd.knownHostsLine } });
        // The row as it was written before: AES-256-GCM under the configured key, its id an HMAC of that key.
        const raw = Buffer.from(configured, 'base64');
        const nonce = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', raw, nonce);
        cipher.setAAD(Buffer.from(`${tenant.tenantId}/${created.body.id}/private_key`));
        const ciphertext = Buffer.concat([cipher.update(await readablePrivateKey(key.privateKey), 'utf8'), cipher.final()]);
        const legacyKeyId = createHmac('sha256', raw).update('svc ssh key id').digest('hex').slice(0, 16);
        await legacy.database.db.update(targets).set({ keyId: legacyKeyId, privateKeyEncrypted: Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]) });

        await legacy.restart({ encryptionKey: configured, allowedCidrs: LOOPBACK_CIDRS });
        const [row] = await legacy.database.db.select({ keyId: targets.keyId }).from(targets);
        expect(row!.keyId).not.toBe(legacyKeyId);
        expect(legacy.entries.some((entry) => entry.message === 'ssh credentials re-sealed under the current key' && entry.resealed === 1)).toBe(true);
        const result = await legacy.bus.request(SSH_EXEC_RPC, { tenantId: tenant.tenantId, target: 'legacy', command: 'echo derived', timeoutMs: 10_000 }, { timeoutMs: 30_000 });
        expect(result.stdout).toBe('derived\n');
      } finally {
        await legacy.dispose();
      }
    });

    it('opens targets sealed under the previous key, re-seals them at start, and then needs only the new key', async () => {
      const oldKey = newSshKey();
      const newKey = newSshKey();
      const rotating = await SshTestService.start({ encryptionKey: oldKey, allowedCidrs: LOOPBACK_CIDRS }, kind);
      try {
        const key = await generateKeyPair(dir, ['-t', 'ed25519']);
        secrets.push(key.privateKey);
        await sshd.authorize(key.publicKey);
        await rotating.call('/ssh/targets', { method: 'POST', as: tenant, body: { name: 'rotated', host: '127.0.0.1', port: sshd.port, username: sshd.username, auth_method: 'key', private_key: key.privateKey, known_hosts: sshd.knownHostsLine } });
        const keyIds = async () => (await rotating.database.db.select({ keyId: targets.keyId }).from(targets)).map((row) => row.keyId);
        const [underOld] = await keyIds();

        await rotating.restart({ encryptionKey: newKey, previousKeys: [oldKey], allowedCidrs: LOOPBACK_CIDRS });
        const [underNew] = await keyIds();
        expect(underNew).not.toBe(underOld);
        expect(rotating.entries.some((entry) => entry.message === 'ssh credentials re-sealed under the current key' && entry.resealed === 1)).toBe(true);

        await rotating.restart({ encryptionKey: newKey, allowedCidrs: LOOPBACK_CIDRS });
        const result = await rotating.bus.request(SSH_EXEC_RPC, { tenantId: tenant.tenantId, target: 'rotated', command: 'echo rotated', timeoutMs: 10_000 }, { timeoutMs: 30_000 });
        expect(result.stdout).toBe('rotated\n');

        // A key that is given up too early: its targets fail, logged by key id, and nothing else does.
        await rotating.restart({ encryptionKey: newSshKey(), allowedCidrs: LOOPBACK_CIDRS });
        const lost = await failureOf(rotating.bus.request(SSH_EXEC_RPC, { tenantId: tenant.tenantId, target: 'rotated', command: 'echo lost', timeoutMs: 10_000 }, { timeoutMs: 30_000 }));
        expect(lost).toMatchObject({ code: 'INTERNAL_ERROR', details: { key_id: underNew } });
        expect(secretsInLog(rotating.entries, secrets)).toEqual([]);
      } finally {
        await rotating.dispose();
      }
    });
  });

  it('logged no private key, password or sealed credential during the whole run', async () => {
    const sealed = (await test.database.db.select().from(targets)).flatMap((row) => [row.privateKeyEncrypted, row.passwordEncrypted]).filter((value): value is Buffer => value !== null);
    const needles = [...secrets, ...sealed.flatMap((value) => [value.toString('base64'), value.toString('hex')])];
    expect(test.entries.length).toBeGreaterThan(0);
    expect(secretsInLog(test.entries, needles)).toEqual([]);
  });
});
