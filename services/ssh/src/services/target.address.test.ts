import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '@svc/db/testing';
import { eq } from 'drizzle-orm';
import { SSH_EXEC_RPC } from '@svc/contracts';
import { freePort } from '@svc/testing';
import { targets } from '../db/schema.js';
import { generateKeyPair, SSHD, type KeyPair } from '../testing/openssh-server.js';
import { Ssh2TestServer } from '../testing/ssh2-server.js';
import { caller, LOOPBACK_CIDRS, newSshKey, SshTestService, type Reply } from '../testing/ssh-test-service.js';

/** Hosts no target may be at by default: loopback, private, shared, link-local (metadata), reserved, and names that lead there. */
const REFUSED_HOSTS = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '::1', 'fd00:ec2::254', '::ffff:127.0.0.1', 'localhost', '2130706433'];

/** An error body without what differs between any two answers (its correlation id and time). */
const sameness = (reply: Reply) => ({ status: reply.status, type: reply.body.error.type, code: reply.body.error.code, message: reply.body.error.message, details: reply.body.error.details });

describe.skipIf(!existsSync(SSHD)).each(testDatabaseKinds())('where SSH targets may be, on $name', (kind) => {
  const encryptionKey = newSshKey();
  const password = `pw-${randomUUID()}`;
  const me = caller();
  let dir: string;
  let hostKey: KeyPair;
  let server: Ssh2TestServer;
  let test: SshTestService;

  const create = (body: Record<string, unknown>) => test.call('/ssh/targets', { method: 'POST', as: me, body: { username: 'deploy', auth_method: 'password', password, ...body } });
  const expectRefusedHost = (reply: Reply, host: string) => {
    expect(reply.status, `${host}: ${JSON.stringify(reply.body)}`).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'SSH_HOST_REFUSED', details: { field: 'host', reason: 'address_refused' } });
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-ssh-address-'));
    hostKey = await generateKeyPair(dir, ['-t', 'ed25519']);
    server = await Ssh2TestServer.start(hostKey.privateKey, { username: 'deploy', password });
    test = await SshTestService.start({ encryptionKey }, kind);
  });

  afterAll(async () => {
    await test?.dispose();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(REFUSED_HOSTS)('refuses a target created on %s by default (400 SSH_HOST_REFUSED), and keeps nothing', async (host) => {
    expectRefusedHost(await create({ name: 'refused', host }), host);
    expect(await test.database.db.select().from(targets).where(eq(targets.name, 'refused'))).toEqual([]);
  });

  it('never says what a refused name resolved to', async () => {
    const reply = await create({ name: 'named', host: 'localhost' });
    expectRefusedHost(reply, 'localhost');
    expect(JSON.stringify(reply.body)).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('refuses a target moved onto such a host, and leaves it where it was', async () => {
    const created = await create({ name: 'public-box', host: '93.184.215.14' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (const host of ['127.0.0.1', '10.0.0.8', '169.254.169.254', '::1', 'localhost']) {
      expectRefusedHost(await test.call(`/ssh/targets/${created.body.id}`, { method: 'PUT', as: me, body: { host } }), host);
    }
    expect((await test.call(`/ssh/targets/${created.body.id}`, { as: me })).body.host).toBe('93.184.215.14');
  });

  it('accepts a name that does not resolve yet: nothing can be reached through it until it does, and then its address is checked', async () => {
    expect((await create({ name: 'not-yet', host: 'not-yet.invalid' })).status).toBe(201);
  });

  it('lets an operator allow loopback, and checks every connection again against what is allowed now', async () => {
    await test.restart({ encryptionKey, allowedCidrs: LOOPBACK_CIDRS });
    const open = await create({ name: 'loopback-open', host: '127.0.0.1', port: server.port, known_hosts: `127.0.0.1 ${hostKey.publicKey}` });
    const closed = await create({ name: 'loopback-closed', host: '127.0.0.1', port: await freePort() });
    const named = await create({ name: 'loopback-named', host: 'localhost', port: server.port, known_hosts: `localhost ${hostKey.publicKey}` });
    for (const reply of [open, closed, named]) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect((await test.call(`/ssh/targets/${open.body.id}/verify`, { method: 'POST', as: me })).body).toMatchObject({ connected: true });

    // The operator narrows the allow-list: the targets stay, and nothing reaches them any more.
    await test.restart({ encryptionKey });
    const reached = server.accepted;
    const verifies = await Promise.all([open, closed, named].map((target) => test.call(`/ssh/targets/${target.body.id}/verify`, { method: 'POST', as: me })));
    expect(verifies[0]!.status).toBe(502);
    expect(sameness(verifies[0]!)).toMatchObject({ code: 'SSH_CONNECTION_FAILED', message: 'connection failed', details: { reason: 'address_refused' } });
    // One answer whether an SSH server, nothing at all, or a name listens there: no port is told apart.
    expect(verifies.map(sameness)).toEqual([sameness(verifies[0]!), sameness(verifies[0]!), sameness(verifies[0]!)]);

    for (const target of ['loopback-open', 'loopback-named']) {
      const err = await test.bus.request(SSH_EXEC_RPC, { tenantId: me.tenantId, target, command: 'echo hi', timeoutMs: 5000 }, { timeoutMs: 20_000 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'SSH_CONNECTION_FAILED', message: 'connection failed', details: { reason: 'address_refused', target } });
    }
    expect(server.accepted).toBe(reached);
  });
});
