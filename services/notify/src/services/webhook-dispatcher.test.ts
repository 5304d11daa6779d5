import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '@svc/bus';
import { WEBHOOK_EVENT_TYPES } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import type { NotifyServiceHandle } from '../app.js';
import { inArray } from 'drizzle-orm';
import { inbox } from '../db/schema.js';
import { startNotify, tenantOwner, TEST_WEBHOOKS, until } from '../testing/notify-fixture.js';
import { startReceiver, verifySignature, type TestReceiver } from '../testing/receiver.js';

const log = createLogger({ service: 'webhook-dispatcher-test', silent: true });
const ALL = [...WEBHOOK_EVENT_TYPES];

describe.each(testDatabaseKinds())('webhook deliveries on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let smtp: TestSmtpServer;
  let notify: NotifyServiceHandle;
  const receivers: TestReceiver[] = [];
  const deps = () => ({ database: db.database, bus, log });

  async function endpoint(slug: string, events: string[] = ALL) {
    const owner = tenantOwner(slug);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await notify.webhooks.create(owner, { url: receiver.url, events: events as typeof ALL, description: '' });
    return { owner, receiver, hook };
  }

  const commandRun = (tenantId: string, n: number) =>
    bus.publish('command.executed', { command: 'acme.echo', tenant_id: tenantId, user_id: 'u1', duration_ms: n, task_id: randomUUID(), status: 'success' }, { messageId: randomUUID() });

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    smtp = await startSmtpServer();
    notify = await startNotify(deps(), { mail: { smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' } });
  });

  afterAll(async () => {
    await notify?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await smtp?.close();
    await bus?.close();
    await db?.dispose();
  });

  it("delivers every event kind, signed, with its id, to the endpoints of the tenant it concerns only", async () => {
    const alpha = await endpoint('alpha');
    const beta = await endpoint('beta');
    const tenant = alpha.owner.tenantId;
    const run = { command: 'acme.echo', tenant_id: tenant, user_id: 'u1', duration_ms: 12.4, task_id: randomUUID() };
    const pack = { pack_id: 'p1', tenant_id: tenant, user_id: 'u1', namespace: 'acme', name: 'tools', commands: ['acme.echo'] };
    await bus.publish('command.executed', { ...run, status: 'success' });
    await bus.publish('task.completed', { ...run, status: 'success' });
    await bus.publish('task.failed', { ...run, status: 'failure', error: { type: 'Error', message: 'boom' } });
    await bus.publish('pack.installed', { ...pack, version: '1.0.0', version_id: 'v1', previous_version: null, visibility: 'public' });
    await bus.publish('pack.uninstalled', { ...pack, version: '1.0.0' });
    await bus.publish('dashboard.deleted', { dashboard_id: 'd1', tenant_id: tenant, scope: 'alpha', name: 'sales', versions_removed: 3, occurred_at: new Date().toISOString() });

    await until(() => alpha.receiver.received.length >= 6, 'six deliveries');
    const received = alpha.receiver.received;
    expect(received.map((r) => r.event.type)).toEqual(['command.executed', 'task.completed', 'task.failed', 'pack.installed', 'pack.uninstalled', 'dashboard_deleted']);
    for (const delivery of received) {
      expect(verifySignature(alpha.hook.secret, String(delivery.headers['svc-signature']), delivery.body)).toBe(true);
      expect(verifySignature(beta.hook.secret, String(delivery.headers['svc-signature']), delivery.body)).toBe(false);
      expect(delivery.headers['svc-event-id']).toBe(delivery.event.id);
      expect(delivery.headers['svc-event-type']).toBe(delivery.event.type);
      expect(new Date(delivery.event.timestamp).toISOString()).toBe(delivery.event.timestamp);
      expect(delivery.event.data.tenant_id).toBe(tenant);
    }
    expect(received[0]!.event.data).toEqual({ command: 'acme.echo', tenant_id: tenant, user_id: 'u1', duration_ms: 12, task_id: run.task_id, status: 'success' });
    expect(received[2]!.event.data).toMatchObject({ task_id: run.task_id, status: 'failure', error: { type: 'Error', message: 'boom' } });
    expect(received[5]!.event.data).toEqual({ dashboard_id: 'd1', tenant_id: tenant, scope: 'alpha', name: 'sales', versions_removed: 3 });
    await commandRun(beta.owner.tenantId, 1);
    await until(() => beta.receiver.received.length === 1, "beta's own event");
    expect(beta.receiver.received[0]!.event.data.tenant_id).toBe(beta.owner.tenantId);
    expect(alpha.receiver.received).toHaveLength(6);
  });

  it('sends only the events an endpoint asked for, and an event seen twice once', async () => {
    const gamma = await endpoint('gamma', ['task.failed']);
    const id = randomUUID();
    const failed = { command: 'acme.echo', tenant_id: gamma.owner.tenantId, user_id: 'u1', duration_ms: 5, task_id: randomUUID(), status: 'timeout' as const };
    await bus.publish('command.executed', { ...failed }, { messageId: randomUUID() });
    await bus.publish('task.failed', failed, { messageId: id });
    await bus.publish('task.failed', failed, { messageId: id });
    await until(() => gamma.receiver.received.length === 1, 'the failed task');
    await notify.dispatcher.kick();
    expect(gamma.receiver.received.map((r) => [r.event.type, r.event.id])).toEqual([['task.failed', id]]);
  });

  it("passes over a tenant's events while it has no endpoint, without recording them, and delivers them from its first endpoint on", async () => {
    const owner = tenantOwner('epsilon');
    const unheard = randomUUID();
    await bus.publish('command.executed', { command: 'acme.echo', tenant_id: owner.tenantId, user_id: 'u1', duration_ms: 1, task_id: randomUUID(), status: 'success' }, { messageId: unheard });
    // Events are handled in the order they arrived: once a later one is delivered, the first was handled.
    const zeta = await endpoint('zeta', ['command.executed']);
    const heard = randomUUID();
    await bus.publish('command.executed', { command: 'acme.echo', tenant_id: zeta.owner.tenantId, user_id: 'u1', duration_ms: 1, task_id: randomUUID(), status: 'success' }, { messageId: heard });
    await until(() => zeta.receiver.received.length === 1, "zeta's event");
    const recorded = await db.database.db.select({ eventId: inbox.eventId }).from(inbox).where(inArray(inbox.eventId, [unheard, heard]));
    expect(recorded.map((r) => r.eventId)).toEqual([heard]);

    const receiver = await startReceiver();
    receivers.push(receiver);
    await notify.webhooks.create(owner, { url: receiver.url, events: ['command.executed'], description: '' });
    const later = randomUUID();
    await bus.publish('command.executed', { command: 'acme.echo', tenant_id: owner.tenantId, user_id: 'u1', duration_ms: 1, task_id: randomUUID(), status: 'success' }, { messageId: later });
    await until(() => receiver.received.length === 1, "epsilon's first heard event");
    expect(receiver.received[0]!.event.id).toBe(later);
  });

  it('gives a receiver that was down everything once it is back, in order', async () => {
    const delta = await endpoint('delta', ['command.executed']);
    delta.receiver.answer('drop');
    for (let n = 1; n <= 5; n++) await commandRun(delta.owner.tenantId, n);
    await until(() => delta.receiver.received.length >= 3, 'a few refused tries');
    delta.receiver.answer(200);
    await until(async () => (await notify.webhooks.deliveries(delta.owner, delta.hook.id, { limit: 20 })).every((d) => d.status === 'succeeded'), 'every delivery to succeed');
    const firstSeen = [...new Set(delta.receiver.received.map((r) => r.event.data.duration_ms))];
    expect(firstSeen).toEqual([1, 2, 3, 4, 5]);
    // Nothing after the first event was sent before the first went through.
    const firstSuccess = delta.receiver.received.findLastIndex((r) => r.event.data.duration_ms === 1);
    expect(delta.receiver.received.slice(0, firstSuccess).every((r) => r.event.data.duration_ms === 1)).toBe(true);
  });

  it('retries a failing receiver with growing gaps until it gives up, and the delivery log says so', async () => {
    const epsilon = await endpoint('epsilon', ['command.executed']);
    epsilon.receiver.answer(500);
    await commandRun(epsilon.owner.tenantId, 7);
    const [failed] = await until(async () => {
      const log = await notify.webhooks.deliveries(epsilon.owner, epsilon.hook.id, { limit: 20 });
      return log[0]?.status === 'failed' ? log : undefined;
    }, 'the delivery to fail', 15_000);
    expect(epsilon.receiver.received).toHaveLength(5);
    const times = epsilon.receiver.received.map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThan(gaps[i - 1]!);
    expect(epsilon.receiver.received.map((r) => r.headers['svc-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5']);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, response_code: 500, last_error: 'HTTP 500', next_attempt_at: null });
    expect(failed!.attempt_log.map((a) => [a.attempt, a.response_code])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 500]));
    const logged = failed!.attempt_log.map((a) => Date.parse(a.at));
    const loggedGaps = logged.slice(1).map((t, i) => t - logged[i]!);
    for (let i = 1; i < loggedGaps.length; i++) expect(loggedGaps[i]!).toBeGreaterThan(loggedGaps[i - 1]!);
  });

  it('checks the address again at delivery: an endpoint the operator no longer allows is not reached', async () => {
    const eta = await endpoint('eta', ['command.executed']);
    await notify.stop();
    notify = await startNotify(deps(), { webhooks: { ...TEST_WEBHOOKS, allowedCidrs: [] } });
    await commandRun(eta.owner.tenantId, 1);
    const [refused] = await until(async () => {
      const log = await notify.webhooks.deliveries(eta.owner, eta.hook.id, { limit: 5 });
      return log[0]?.last_error ? log : undefined;
    }, 'a refused try');
    expect(refused!.last_error).toContain('is not a public address');
    expect(eta.receiver.received).toHaveLength(0);
    await notify.stop();
    notify = await startNotify(deps(), { mail: { smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' } });
    await until(() => eta.receiver.received.length === 1, 'the delivery once allowed again');
  });

  it('keeps pending deliveries across a restart, and disables an endpoint failing too long, telling its owner', async () => {
    const zeta = await endpoint('zeta', ['command.executed']);
    zeta.receiver.answer(503);
    await commandRun(zeta.owner.tenantId, 1);
    await until(() => zeta.receiver.received.length >= 1, 'a first try');
    await notify.stop();
    zeta.receiver.answer(200);
    notify = await startNotify(deps(), { mail: { smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' } });
    await until(async () => (await notify.webhooks.deliveries(zeta.owner, zeta.hook.id, { limit: 5 }))[0]?.status === 'succeeded', 'the delivery after the restart');

    await notify.stop();
    notify = await startNotify(deps(), { mail: { smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' }, webhooks: { ...TEST_WEBHOOKS, disableAfterMs: 300 } });
    zeta.receiver.answer(500);
    await commandRun(zeta.owner.tenantId, 2);
    await commandRun(zeta.owner.tenantId, 3);
    await until(async () => (await notify.webhooks.get(zeta.owner, zeta.hook.id)).status === 'disabled', 'the endpoint to be disabled');
    const mail = await until(() => smtp.received.find((m) => m.subject === 'Your svc webhook endpoint was disabled'), 'the owner to be told');
    expect(mail.to).toMatchObject({ text: 'zeta@example.test' });
    expect(mail.text).toContain(zeta.receiver.url);
    expect(mail.html).toContain(zeta.hook.id);
    const log = await notify.webhooks.deliveries(zeta.owner, zeta.hook.id, { limit: 5 });
    expect(log.filter((d) => d.status === 'pending')).toEqual([]);
    await expect(notify.webhooks.ping(zeta.owner, zeta.hook.id)).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
