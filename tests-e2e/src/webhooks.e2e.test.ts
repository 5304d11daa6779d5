import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, verifySignature, type TestReceiver } from '@svc/notify/testing';
import { startSmtpServer, startTcpProxy, type TcpProxy, type TestSmtpServer } from '@svc/testing';
import { adminToken, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

const ALL_EVENTS = ['command.executed', 'task.completed', 'task.failed', 'pack.installed', 'pack.uninstalled', 'dashboard_deleted'];

async function until<T>(probe: () => T | Promise<T>, what: string, withinMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(oneMode('real'))('outbound webhooks and e-mail (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let smtp: TestSmtpServer;
  let smtpProxy: TcpProxy;
  let dev: TestUser;
  let stranger: TestUser;
  const receivers: TestReceiver[] = [];
  const proxies: TcpProxy[] = [];

  /** An endpoint of `user` on a fresh receiver, reached through a proxy the test can cut. */
  async function endpoint(user: TestUser, events = ALL_EVENTS) {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const target = new URL(receiver.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    proxies.push(proxy);
    const created = await call('/api/v1/webhooks', { token: user.token, body: { url: `http://127.0.0.1:${proxy.port}/hooks`, events } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { receiver, proxy, hook: created.body.data as { id: string; secret: string } };
  }

  const deliveries = async (user: TestUser, hookId: string) => (await call(`/api/v1/webhooks/${hookId}/deliveries?limit=100`, { token: user.token })).body.data as any[];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    smtpProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(smtp.url).port) });
    fleet = await startTestFleet(mode, { smtpUrl: `smtp://127.0.0.1:${smtpProxy.port}` });
    call = client(fleet.url);
    const admin = await adminToken(call);
    [dev, stranger] = [await signUp(call, admin), await signUp(call, admin)];
    await createOrganization(call, dev);
  });

  afterAll(async () => {
    await fleet?.stop();
    await Promise.all([...proxies, smtpProxy].filter(Boolean).map((p) => p.close()));
    await Promise.all(receivers.map((r) => r.close()));
    await smtp?.close();
  });

  it("delivers every event kind, signed and verifiable, to the tenant's own endpoint only", async () => {
    const mine = await endpoint(dev);
    const theirs = await endpoint(stranger);
    const ns = dev.slug;
    const files = { 'commands/echo.js': 'export default async (input) => ({ echoed: input });', 'commands/fail.js': 'export default async () => { throw new Error("broke"); };' };
    const packId = await installPack(fleet.url, call, dev, { namespace: ns, name: 'hooks', commands: [{ name: 'echo' }, { name: 'fail' }], files });
    expect((await call(`/api/v1/commands/${ns}/echo`, { token: dev.token, body: {} })).status).toBe(200);
    const ok = await call(`/api/v1/commands/${ns}/echo?async=true`, { token: dev.token, body: {} });
    const bad = await call(`/api/v1/commands/${ns}/fail?async=true`, { token: dev.token, body: {} });
    await pollTask(call, dev.token, ok.body.data.task_id);
    await pollTask(call, dev.token, bad.body.data.task_id);
    expect((await call(`/api/v1/packs/${packId}`, { method: 'DELETE', token: dev.token })).status).toBe(200);
    // The dashboard service announces a deletion so; it is not in this fleet yet.
    await fleet.infra.bus.publish('dashboard.deleted', { dashboard_id: 'd1', tenant_id: dev.tenantId, scope: ns, name: 'sales', versions_removed: 2, occurred_at: new Date().toISOString() });

    const types = () => new Set(mine.receiver.received.map((r) => r.event.type));
    await until(() => ALL_EVENTS.every((type) => types().has(type)), 'every event kind');
    for (const delivery of mine.receiver.received) {
      expect(verifySignature(mine.hook.secret, String(delivery.headers['svc-signature']), delivery.body)).toBe(true);
      expect(delivery.headers['svc-event-id']).toBe(delivery.event.id);
      expect(delivery.event.data.tenant_id).toBe(dev.tenantId);
    }
    const executed = mine.receiver.received.find((r) => r.event.type === 'command.executed')!.event;
    expect(executed).toMatchObject({ type: 'command.executed', data: { command: `${ns}.echo`, tenant_id: dev.tenantId, user_id: dev.id } });
    expect(Number.isInteger(executed.data.duration_ms)).toBe(true);
    expect(mine.receiver.received.find((r) => r.event.type === 'task.failed')!.event.data).toMatchObject({ task_id: bad.body.data.task_id, status: 'failure' });
    expect(mine.receiver.received.find((r) => r.event.type === 'dashboard_deleted')!.event.data).toEqual({ dashboard_id: 'd1', tenant_id: dev.tenantId, scope: ns, name: 'sales', versions_removed: 2 });
    expect(theirs.receiver.received).toEqual([]);
    expectError(await call(`/api/v1/webhooks/${mine.hook.id}/deliveries`, { token: stranger.token }), 404, 'NOT_FOUND');
    expect((await call('/api/v1/webhooks', { token: stranger.token })).body.data.map((h: { id: string }) => h.id)).toEqual([theirs.hook.id]);
  });

  it('gives a receiver that was down for a while everything once it is back, in order', async () => {
    const { receiver, proxy, hook } = await endpoint(dev, ['command.executed']);
    proxy.cut();
    for (let n = 0; n < 4; n++) expect((await call(`/api/v1/webhooks/${hook.id}/ping`, { method: 'POST', token: dev.token })).status).toBe(202);
    const queued = (await deliveries(dev, hook.id)).map((d) => d.event_id).reverse();
    await until(async () => (await deliveries(dev, hook.id)).some((d) => d.attempts >= 2 && d.last_error), 'refused tries');
    expect(receiver.received).toEqual([]);
    proxy.resume();
    await until(async () => (await deliveries(dev, hook.id)).every((d) => d.status === 'succeeded'), 'every delivery');
    expect(receiver.received.map((r) => r.event.id)).toEqual(queued);
  });

  it('retries a 500ing receiver with growing gaps, and the delivery log says so', async () => {
    const { receiver, hook } = await endpoint(dev, ['command.executed']);
    receiver.answer(500);
    await call(`/api/v1/webhooks/${hook.id}/ping`, { method: 'POST', token: dev.token });
    await until(() => receiver.received.length >= 4, 'four tries');
    receiver.answer(200);
    const [delivery] = await until(async () => {
      const log = await deliveries(dev, hook.id);
      return log[0]?.status === 'succeeded' ? log : undefined;
    }, 'the delivery to go through');
    const tries = delivery.attempt_log as { attempt: number; at: string; response_code: number }[];
    expect(tries.slice(0, 4).map((t) => t.response_code)).toEqual([500, 500, 500, 500]);
    expect(tries.at(-1)!.response_code).toBe(200);
    const at = tries.map((t) => Date.parse(t.at));
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThan(gaps[i - 1]!);
  });

  it('sends e-mails the relay could not take once it is back', async () => {
    smtpProxy.cut();
    const changed = await call('/api/v1/auth/change-password', { token: stranger.token, body: { current_password: stranger.password, new_password: 'another-password-1' } });
    expect(changed.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.received.filter((m) => m.subject === 'Your svc password was changed')).toEqual([]);
    smtpProxy.resume();
    const mail = await until(() => smtp.received.find((m) => m.subject === 'Your svc password was changed'), 'the e-mail');
    expect(mail.text).toContain('was changed');
    expect(mail.html).toContain('<p>');
  });
});
