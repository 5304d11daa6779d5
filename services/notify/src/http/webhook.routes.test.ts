import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { createBus, type Bus } from '@svc/bus';
import { WEBHOOKS_PER_TENANT } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import type { NotifyServiceHandle } from '../app.js';
import { startNotify, tenantOwner, until } from '../testing/notify-fixture.js';
import { startReceiver, verifySignature, type TestReceiver } from '../testing/receiver.js';

const log = createLogger({ service: 'webhook-routes-test', silent: true });
const SECRET = 'notify-routes-test-secret-0123456789abcdef';

describe('webhook routes', () => {
  let db: TestDatabase;
  let bus: Bus;
  let notify: NotifyServiceHandle;
  let server: Server;
  let base: string;
  let receiver: TestReceiver;

  async function call(path: string, options: { method?: string; as?: Identity; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (options.as) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(options.as, SECRET);
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  const expectError = (reply: { status: number; body: any }, status: number, code: string, field?: string) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body).toMatchObject({ success: false, error: { code } });
    if (field) expect(reply.body.error.details.field).toBe(field);
  };

  const register = async (as: Identity, events = ['command.executed']) => {
    const reply = await call('/webhooks', { method: 'POST', as, body: { url: receiver.url, events } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data;
  };

  beforeAll(async () => {
    db = await testDatabaseKinds()[0]!.open();
    bus = await createBus({ logger: log });
    notify = await startNotify({ database: db.database, bus, log });
    server = await listen(createServiceApp({ service: 'test', routes: notify.routes, internalSecret: SECRET, log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    receiver = await startReceiver();
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await notify?.stop();
    await receiver?.close();
    await bus?.close();
    await db?.dispose();
  });

  it('registers an endpoint, showing its secret once', async () => {
    const owner = tenantOwner('reg');
    const created = await register(owner, ['task.failed', 'dashboard_deleted']);
    expect(created).toMatchObject({ url: receiver.url, events: ['task.failed', 'dashboard_deleted'], status: 'active', failing_since: null, description: '' });
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const listed = await call('/webhooks', { as: owner });
    expect(listed.body.data).toEqual([{ ...created, secret: undefined }].map(({ secret: _, ...rest }) => rest));
    expect((await call(`/webhooks/${created.id}`, { as: owner })).body.data.secret).toBeUndefined();
  });

  it('refuses bad bodies with the field at fault', async () => {
    const owner = tenantOwner('bad');
    expectError(await call('/webhooks', { method: 'POST', as: owner, body: { url: receiver.url, events: ['nope'] } }), 400, 'VALIDATION_FAILED', 'events.0');
    expectError(await call('/webhooks', { method: 'POST', as: owner, body: { url: receiver.url, events: [] } }), 400, 'VALIDATION_FAILED', 'events');
    expectError(await call('/webhooks', { method: 'POST', as: owner, body: { url: receiver.url, events: ['task.failed', 'task.failed'] } }), 400, 'VALIDATION_FAILED', 'events');
    expectError(await call('/webhooks', { method: 'POST', as: owner, body: { events: ['task.failed'] } }), 400, 'VALIDATION_FAILED', 'url');
    expectError(await call('/webhooks', { method: 'POST', as: owner, body: { url: receiver.url, events: ['task.failed'], extra: 1 } }), 400, 'VALIDATION_FAILED');
    for (const url of ['not a url', 'ftp://127.0.0.1/x', 'http://user:pw@127.0.0.1/x', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://no-such-host.invalid/x']) {
      expectError(await call('/webhooks', { method: 'POST', as: owner, body: { url, events: ['task.failed'] } }), 400, 'VALIDATION_FAILED', 'url');
    }
    expectError(await call('/webhooks/not-a-uuid', { as: owner }), 400, 'VALIDATION_FAILED', 'id');
    expectError(await call(`/webhooks/${randomUUID()}/deliveries?limit=1000`, { as: owner }), 400, 'VALIDATION_FAILED', 'limit');
  });

  it(`holds at most ${WEBHOOKS_PER_TENANT} endpoints per tenant`, async () => {
    const owner = tenantOwner('many');
    for (let i = 0; i < WEBHOOKS_PER_TENANT; i++) await register(owner);
    expectError(await call('/webhooks', { method: 'POST', as: owner, body: { url: receiver.url, events: ['task.failed'] } }), 400, 'VALIDATION_FAILED', 'url');
  });

  it("keeps a tenant's endpoints and deliveries from every other tenant", async () => {
    const owner = tenantOwner('mine');
    const other = tenantOwner('theirs');
    const hook = await register(owner);
    const ping = await call(`/webhooks/${hook.id}/ping`, { method: 'POST', as: owner });
    expect(ping.status).toBe(202);
    expect((await call('/webhooks', { as: other })).body.data).toEqual([]);
    expectError(await call(`/webhooks/${hook.id}`, { as: other }), 404, 'NOT_FOUND');
    expectError(await call(`/webhooks/${hook.id}/deliveries`, { as: other }), 404, 'NOT_FOUND');
    expectError(await call(`/webhooks/${hook.id}/ping`, { method: 'POST', as: other }), 404, 'NOT_FOUND');
    expectError(await call(`/webhooks/${hook.id}/deliveries/${ping.body.data.id}/redeliver`, { method: 'POST', as: other }), 404, 'NOT_FOUND');
    expectError(await call(`/webhooks/${hook.id}`, { method: 'DELETE', as: other }), 404, 'NOT_FOUND');
    expect((await call(`/webhooks/${hook.id}`, { as: owner })).status).toBe(200);
  });

  it("lets an organization's owners and admins manage its endpoints, not its members", async () => {
    const orgId = randomUUID();
    const as = (role: 'owner' | 'admin' | 'member'): Identity => {
      const person = tenantOwner(`org-${role}`);
      return { ...person, tenantId: orgId, tenantSlug: 'org', memberships: [...person.memberships, { tenantId: orgId, slug: 'org', kind: 'organization', role }] };
    };
    const hook = await register(as('admin'));
    expect((await call('/webhooks', { as: as('owner') })).body.data.map((h: any) => h.id)).toEqual([hook.id]);
    expectError(await call('/webhooks', { as: as('member') }), 403, 'PERMISSION_DENIED');
    expectError(await call('/webhooks', { method: 'POST', as: as('member'), body: { url: receiver.url, events: ['task.failed'] } }), 403, 'PERMISSION_DENIED');
  });

  it('pings, logs the delivery, and redelivers it under the same event id', async () => {
    const owner = tenantOwner('ping');
    const hook = await register(owner);
    const ping = (await call(`/webhooks/${hook.id}/ping`, { method: 'POST', as: owner })).body.data;
    expect(ping).toMatchObject({ webhook_id: hook.id, event_type: 'webhook.ping', status: 'pending', attempts: 0 });
    const delivered = await until(async () => {
      const log = (await call(`/webhooks/${hook.id}/deliveries`, { as: owner })).body.data;
      return log[0]?.status === 'succeeded' ? log[0] : undefined;
    }, 'the ping to be delivered');
    expect(delivered).toMatchObject({ id: ping.id, attempts: 1, response_code: 200, last_error: null, next_attempt_at: null });
    expect(delivered.latency_ms).toBeGreaterThanOrEqual(0);
    expect(delivered.attempt_log).toEqual([expect.objectContaining({ attempt: 1, response_code: 200, error: null })]);
    const again = await call(`/webhooks/${hook.id}/deliveries/${ping.id}/redeliver`, { method: 'POST', as: owner });
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ event_id: ping.event_id, status: 'pending' });
    await until(() => receiver.received.filter((r) => r.event.id === ping.event_id).length === 2, 'the redelivery');
    const copies = receiver.received.filter((r) => r.event.id === ping.event_id);
    expect(copies[1]!.body).toBe(copies[0]!.body);
    expect(copies.every((c) => verifySignature(hook.secret, String(c.headers['svc-signature']), c.body))).toBe(true);
    const page = (await call(`/webhooks/${hook.id}/deliveries?limit=1`, { as: owner })).body.data;
    expect(page.map((d: any) => d.id)).toEqual([again.body.data.id]);
    const older = (await call(`/webhooks/${hook.id}/deliveries?limit=5&before=${page[0].id}`, { as: owner })).body.data;
    expect(older.map((d: any) => d.id)).toEqual([ping.id]);
    expectError(await call(`/webhooks/${hook.id}/deliveries/${randomUUID()}/redeliver`, { method: 'POST', as: owner }), 404, 'NOT_FOUND');
  });

  it('deletes an endpoint with its log', async () => {
    const owner = tenantOwner('gone');
    const hook = await register(owner);
    expect((await call(`/webhooks/${hook.id}`, { method: 'DELETE', as: owner })).body).toEqual({ data: { deleted: true } });
    expectError(await call(`/webhooks/${hook.id}/deliveries`, { as: owner }), 404, 'NOT_FOUND');
    expectError(await call(`/webhooks/${hook.id}`, { method: 'DELETE', as: owner }), 404, 'NOT_FOUND');
  });
});
