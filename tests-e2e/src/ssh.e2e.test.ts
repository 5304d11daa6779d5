import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { generateKeyPair, LOOPBACK_CIDRS, OpenSshServer, secretsInLog, SSHD } from '@svc/ssh/testing';
import { capturingLogger, type LogEntry } from '@svc/testing';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';

/** Runs `input.command` on `input.target` and answers what ctx.ssh.exec gave, or the error it threw. */
const REMOTE = `export default async (input, ctx) => {
  try {
    return { ok: await ctx.ssh.exec(input.target, input.command, input.timeout ? { timeout: input.timeout } : {}) };
  } catch (err) {
    return { error: { name: err.name, message: err.message, code: err.code } };
  }
};`;

describe.skipIf(!existsSync(SSHD)).each(MODES)('packs running commands on SSH targets (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let sshd: OpenSshServer;
  let dir: string;
  let publisher: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  /** Everything every service logged (debug and up), scanned at the end for credentials. */
  const logged: LogEntry[] = [];
  const privateKeys: string[] = [];

  const remote = (user: TestUser, input: Record<string, unknown>) => call(`/api/v1/commands/${publisher.slug}/remote`, { token: user.token, body: input });
  const resultOf = async (user: TestUser, input: Record<string, unknown>) => {
    const reply = await remote(user, input);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data.result;
  };

  async function register(user: TestUser, name: string) {
    const key = await generateKeyPair(dir, ['-t', 'ed25519']);
    privateKeys.push(key.privateKey);
    await sshd.authorize(key.publicKey);
    const created = await call('/api/v1/ssh/targets', { token: user.token, body: { name, host: '127.0.0.1', port: sshd.port, username: sshd.username, auth_method: 'key', private_key: key.privateKey } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: string };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-ssh-e2e-'));
    sshd = await OpenSshServer.start();
    fleet = await startTestFleet(mode, {
      logger: () => capturingLogger(logged).logger,
      // The OpenSSH server of the test listens on loopback, which targets may not use by default.
      sshAllowedCidrs: LOOPBACK_CIDRS,
    });
    call = client(fleet.url);
    const admin = await adminToken(call);
    [publisher, alice, bob] = [await signUp(call, admin), await signUp(call, admin), await signUp(call, admin)];
    await createOrganization(call, publisher);
    await installPack(fleet.url, call, publisher, {
      namespace: publisher.slug,
      name: 'ops',
      visibility: 'public',
      manifest: { ssh_targets: { allowed: ['build-box', 'fresh-box'] } },
      commands: [{ name: 'remote', input_schema: { type: 'object', properties: { target: { type: 'string' }, command: { type: 'string' }, timeout: { type: 'integer' } }, required: ['target', 'command'] } }],
      files: { 'commands/remote.js': REMOTE },
    });
  });

  afterAll(async () => {
    await fleet?.stop();
    await sshd?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs a command on the caller's verified target through the pack, with the caller's credentials", async () => {
    const target = await register(alice, 'build-box');
    expect((await resultOf(alice, { target: 'build-box', command: 'id' })).error).toMatchObject({ message: 'no host key fingerprint stored' });

    const verified = await call(`/api/v1/ssh/targets/${target.id}/verify`, { token: alice.token, method: 'POST' });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ connected: true, fingerprint: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/) });
    const stored = await call(`/api/v1/ssh/targets/${target.id}`, { token: alice.token, method: 'PUT', body: { known_hosts: sshd.knownHostsLine } });
    expect(stored.status).toBe(200);

    expect(await resultOf(alice, { target: 'build-box', command: 'echo "hello from $(whoami)"; exit 4' })).toEqual({
      ok: { stdout: `hello from ${sshd.username}\n`, stderr: '', exit_code: 4, truncated: false },
    });
    expect((await resultOf(alice, { target: 'build-box', command: 'sleep 5', timeout: 300 })).error).toMatchObject({ message: 'command timed out', code: 'TIMEOUT' });
  });

  it("refuses targets the pack's manifest does not list, whoever owns them", async () => {
    await register(alice, 'other-box');
    expect((await resultOf(alice, { target: 'other-box', command: 'id' })).error).toEqual({ name: 'PermissionError', message: "target not allowed by this pack's manifest", code: 'PERMISSION_DENIED' });
  });

  it("gives a second tenant running the same pack no way to the first tenant's target", async () => {
    expect((await resultOf(bob, { target: 'build-box', command: 'id' })).error).toMatchObject({ message: 'SSH target not found', code: 'NOT_FOUND' });
    expect((await resultOf(publisher, { target: 'build-box', command: 'id' })).error).toMatchObject({ message: 'SSH target not found' });
    const mine = (await call('/api/v1/ssh/targets', { token: alice.token })).body as Array<{ id: string; name: string }>;
    expect(mine.map((t) => t.name).sort()).toEqual(['build-box', 'other-box']);
    expect((await call('/api/v1/ssh/targets', { token: bob.token })).body).toEqual([]);
    expect((await call(`/api/v1/ssh/targets/${mine[0]!.id}`, { token: bob.token })).status).toBe(404);
    expect((await call(`/api/v1/ssh/targets/${mine[0]!.id}`, { token: bob.token, method: 'DELETE' })).status).toBe(404);
  });

  it('fails with "connection failed" when the host key changed', async () => {
    const fresh = await register(alice, 'fresh-box');
    await call(`/api/v1/ssh/targets/${fresh.id}`, { token: alice.token, method: 'PUT', body: { known_hosts: `127.0.0.1 ${(await generateKeyPair(dir, ['-t', 'ed25519'])).publicKey}` } });
    expect((await resultOf(alice, { target: 'fresh-box', command: 'id' })).error).toMatchObject({ message: 'connection failed', code: 'SSH_CONNECTION_FAILED' });
  });

  it('refuses SSH endpoints without an access token', async () => {
    expect((await call('/api/v1/ssh/targets')).status).toBe(401);
  });

  it('logged no private key, password or sealed credential in the whole run', async () => {
    const rows = await fleet.infra.database.db.execute(sql`select private_key_encrypted, password_encrypted from ssh.targets`);
    const sealed = (rows as unknown as { rows: Array<Record<string, Buffer | Uint8Array | null>> }).rows
      .flatMap((row) => [row.private_key_encrypted, row.password_encrypted])
      .filter((value): value is Buffer | Uint8Array => value !== null)
      .map((value) => Buffer.from(value));
    expect(sealed.length).toBeGreaterThan(0);
    expect(logged.length).toBeGreaterThan(0);
    expect(secretsInLog(logged, [...privateKeys, ...sealed.flatMap((value) => [value.toString('base64'), value.toString('hex')])])).toEqual([]);
  });
});
