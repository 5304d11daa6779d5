import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { pollTask } from './support/execution.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { uploadPackage } from './support/packs.js';

const QUOTAS = { executions_per_month: 1000, concurrent_sessions: 1, storage_bytes: 100 * 1024 * 1024 };
const SYNC = { method: 'PUT', path: '/api/v1/sandbox/packs' };
const GREET = "export default async (input, ctx) => ({ greeting: `Hello, ${input.text}!`, secrets: Object.keys(ctx.secrets ?? {}) });\n";

describe.each(oneMode('embedded'))('the development sandbox (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const sync = (user: TestUser, pack: TestPack) => packageOf(pack).then((bytes) => uploadPackage(fleet.url, user.token, bytes, 'package', SYNC));

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    ada = await signUp(call, admin, { tier: 'pro' });
    bob = await signUp(call, admin, { tier: 'pro' });
    carol = await signUp(call, admin, { tier: 'pro' });
    await createOrganization(call, ada);
    await createOrganization(call, bob);
  });

  afterAll(async () => {
    await fleet?.stop();
  });

  it('is stopped, without an id, before the first start', async () => {
    const status = await call('/api/v1/sandbox', { token: ada.token });
    expect(status).toMatchObject({ status: 200, body: { data: { status: 'stopped', sandbox_id: null, uptime: 0, timeout: 3600, quotas: QUOTAS, usage: { executions_this_month: 0, storage_bytes: 0 }, packs: [] } } });
    const next = new Date();
    expect(status.body.data.usage.executions_reset_at).toBe(new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)).toISOString());
  });

  it('starts one session at a time: a second start answers the running one with a warning', async () => {
    const started = await call('/api/v1/sandbox', { method: 'POST', token: ada.token, body: { timeout: 600 } });
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({ status: 'running', created: true, timeout: 600, uptime: 0, stopped_at: null, quotas: QUOTAS });
    const id = started.body.data.sandbox_id as string;
    expect(Date.parse(started.body.data.expires_at) - Date.parse(started.body.data.last_active_at)).toBe(600_000);

    const again = await call('/api/v1/sandbox', { method: 'POST', token: ada.token, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'running', sandbox_id: id, created: false, timeout: 600 });
    expect(again.body.data.warning).toMatch(/already running/);

    const status = await call('/api/v1/sandbox', { token: ada.token });
    expect(status.body.data).toMatchObject({ status: 'running', sandbox_id: id });
    expect(status.body.data.uptime).toBeGreaterThanOrEqual(0);
  });

  it('keeps each user to their own sandbox', async () => {
    const ours = (await call('/api/v1/sandbox', { token: ada.token })).body.data;
    expect((await call('/api/v1/sandbox', { token: bob.token })).body.data).toMatchObject({ status: 'stopped', sandbox_id: null });
    // Bob stopping "the" sandbox stops only his own (none), and his start is a session of his own.
    expect((await call('/api/v1/sandbox', { method: 'DELETE', token: bob.token })).body.data).toMatchObject({ status: 'stopped', stopped: false, sandbox_id: null });
    const his = await call('/api/v1/sandbox', { method: 'POST', token: bob.token });
    expect(his.status).toBe(201);
    expect(his.body.data.sandbox_id).not.toBe(ours.sandbox_id);
    expect((await call('/api/v1/sandbox', { token: ada.token })).body.data).toMatchObject({ status: 'running', sandbox_id: ours.sandbox_id });
    await call('/api/v1/sandbox', { method: 'DELETE', token: bob.token });
  });

  it('stops by hand, and a later start is a new session', async () => {
    const before = (await call('/api/v1/sandbox', { token: ada.token })).body.data;
    const stopped = await call('/api/v1/sandbox', { method: 'DELETE', token: ada.token });
    expect(stopped).toMatchObject({ status: 200, body: { data: { status: 'stopped', stopped: true, sandbox_id: before.sandbox_id, uptime: 0, expires_at: null } } });
    expect(stopped.body.data.stopped_at).not.toBeNull();
    expect((await call('/api/v1/sandbox', { method: 'DELETE', token: ada.token })).body.data).toMatchObject({ status: 'stopped', stopped: false });

    const next = await call('/api/v1/sandbox', { method: 'POST', token: ada.token });
    expect(next.status).toBe(201);
    expect(next.body.data).toMatchObject({ status: 'running', timeout: 3600 });
    expect(next.body.data.sandbox_id).not.toBe(before.sandbox_id);
  });

  it('reads as stopped once its inactivity timeout has passed, and starts afresh', async () => {
    const running = (await call('/api/v1/sandbox', { token: ada.token })).body.data;
    // An hour and a minute without activity, as the clock would have it.
    await fleet.infra.database.db.execute(sql`update execution.sandboxes set last_active_at = now() - interval '61 minutes', started_at = now() - interval '61 minutes' where id = ${running.sandbox_id}`);
    const idle = (await call('/api/v1/sandbox', { token: ada.token })).body.data;
    expect(idle).toMatchObject({ status: 'stopped', sandbox_id: running.sandbox_id, uptime: 0, expires_at: null });
    expect(Date.parse(idle.stopped_at)).toBe(Date.parse(idle.last_active_at) + 3_600_000);

    const fresh = await call('/api/v1/sandbox', { method: 'POST', token: ada.token, body: { timeout: 60 } });
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.sandbox_id).not.toBe(running.sandbox_id);
    await call('/api/v1/sandbox', { method: 'DELETE', token: ada.token });
  });

  it('syncs a pack into the running sandbox and runs its commands through the worker', async () => {
    const pack: TestPack = { namespace: ada.slug, name: 'greeter', commands: [{ name: 'greet' }, { name: 'later', queue: 'medium' }], files: { 'commands/greet.js': GREET, 'commands/later.js': GREET }, manifest: { secrets: ['API_TOKEN'] } };
    // A tenant secret the pack declares: sandbox runs are handed none.
    expect((await call(`/api/v1/secrets/${ada.slug}/greeter/API_TOKEN`, { method: 'PUT', token: ada.token, body: { value: 'hush' } })).status).toBe(201);
    expect((await sync(ada, pack)).body).toMatchObject({ success: false, error: { code: 'SANDBOX_NOT_RUNNING' } });
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 'Ada' } })).status).toBe(409);

    await call('/api/v1/sandbox', { method: 'POST', token: ada.token });
    const synced = await sync(ada, pack);
    expect(synced.status, JSON.stringify(synced.body)).toBe(201);
    expect(synced.body.data).toMatchObject({ created: true, pack: { namespace: ada.slug, name: 'greeter', version: '1.0.0', commands: ['greet', 'later'] } });
    expect(synced.body.data.storage_bytes).toBe(synced.body.data.pack.size_bytes);

    const ran = await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 'Ada' } });
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    expect(ran.body.data).toMatchObject({ result: { greeting: 'Hello, Ada!', secrets: [] }, execution: { status: 'completed' } });
    // Medium commands become tasks, polled where every task is.
    const queued = await call(`/api/v1/sandbox/commands/${ada.slug}/later`, { token: ada.token, body: { text: 'later' } });
    expect(queued.status).toBe(202);
    expect((await pollTask(call, ada.token, queued.body.data.task_id)).body.data).toMatchObject({ status: 'success', result: { greeting: 'Hello, later!' } });
    // The input is checked with the command's schema; refused runs are not counted.
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 7 } })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/missing`, { token: ada.token, body: {} })).status).toBe(404);
    // The sandbox pack is not installed anywhere: the platform's own catalog does not run it.
    expect((await call(`/api/v1/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 'Ada' } })).status).toBe(404);

    // A new sync of changed code replaces the old, and the next run runs it.
    const changed = await sync(ada, { ...pack, files: { ...pack.files, 'commands/greet.js': 'export default async (input) => ({ greeting: `Hi, ${input.text}.` });\n' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.created).toBe(false);
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 'Ada' } })).body.data.result).toEqual({ greeting: 'Hi, Ada.' });

    const status = (await call('/api/v1/sandbox', { token: ada.token })).body.data;
    expect(status.usage).toMatchObject({ executions_this_month: 3, storage_bytes: changed.body.data.pack.size_bytes });
    expect(status.packs).toEqual([expect.objectContaining({ namespace: ada.slug, name: 'greeter', sha256: changed.body.data.pack.sha256 })]);
  });

  it('refuses a package that fails the registry checks, or in a namespace not the caller\'s', async () => {
    const broken = await sync(ada, { namespace: ada.slug, name: 'broken', files: { 'commands/broken.js': null } });
    expect(broken).toMatchObject({ status: 400, body: { error: { code: 'ENTRY_MISSING' } } });
    const foreign = await sync(ada, { namespace: bob.slug, name: 'borrowed' });
    expect(foreign).toMatchObject({ status: 403, body: { error: { code: 'PERMISSION_DENIED', details: { reason: 'namespace_not_owned' } } } });
  });

  it('holds the month to 1,000 runs (hard) and the packs to 100 MB', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const db = fleet.infra.database.db;
    await db.execute(sql`update execution.sandbox_usage set executions = 999 where user_id = ${ada.id} and month = ${month}`);
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 'last' } })).status).toBe(200);
    const refused = await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: ada.token, body: { text: 'one more' } });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'QUOTA_EXCEEDED', details: { limit: 1000 } } } });
    expect(refused.body.error.details.resets_at).toBe((await call('/api/v1/sandbox', { token: ada.token })).body.data.usage.executions_reset_at);

    // Another pack that leaves 100 bytes of the 100 MB free: a new pack does not fit; without it, it does.
    const used = (await call('/api/v1/sandbox', { token: ada.token })).body.data.usage.storage_bytes as number;
    await db.execute(sql`insert into execution.sandbox_packages (user_id, namespace, pack, version, sha256, size_bytes, manifest, tarball, synced_at)
      values (${ada.id}, ${ada.slug}, 'bulky', '1.0.0', 'x', ${QUOTAS.storage_bytes - used - 100}, '{"commands": []}', '\\x00', now() - interval '1 day')`);
    const over = await sync(ada, { namespace: ada.slug, name: 'another' });
    expect(over).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE', details: { limit_bytes: QUOTAS.storage_bytes, used_bytes: QUOTAS.storage_bytes - 100 } } } });
    await db.execute(sql`delete from execution.sandbox_packages where user_id = ${ada.id} and pack = 'bulky'`);
    expect((await sync(ada, { namespace: ada.slug, name: 'another' })).status).toBe(201);
  });

  it("keeps one user's synced packs and runs from another", async () => {
    await call('/api/v1/sandbox', { method: 'POST', token: bob.token });
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/greet`, { token: bob.token, body: { text: 'Bob' } })).status).toBe(404);
    expect((await call('/api/v1/sandbox', { token: bob.token })).body.data).toMatchObject({ packs: [], usage: { executions_this_month: 0, storage_bytes: 0 } });
    await call('/api/v1/sandbox', { method: 'DELETE', token: bob.token });
  });

  it('is for accounts in developer mode', async () => {
    expect((await call('/api/v1/sandbox', { method: 'POST', token: carol.token })).body).toMatchObject({ error: { code: 'PERMISSION_DENIED', details: { reason: 'developer_mode_required' } } });
  });

  it('refuses a bad timeout and unknown fields, and callers without credentials', async () => {
    for (const body of [{ timeout: 59 }, { timeout: 86_401 }, { timeout: 1.5 }, { timeout: '600' }, { background: true }]) {
      const reply = await call('/api/v1/sandbox', { method: 'POST', token: ada.token, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    }
    expect((await call('/api/v1/sandbox', {})).status).toBe(401);
  });
});
