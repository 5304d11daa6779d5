import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TcpProxy } from '@svc/testing';
import { adminToken, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { MODES, startFleetThroughProxy, type TestFleet } from './support/fleet.js';

describe.runIf(MODES.includes('real'))('tasks while RabbitMQ goes away (real infrastructure)', () => {
  let proxy: TcpProxy;
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  const echo = (body: unknown, headers: Record<string, string> = {}) => call(`/api/v1/commands/${dev.slug}/echo?async=true`, { token: dev.token, body, headers });

  beforeAll(async () => {
    ({ fleet, proxy } = await startFleetThroughProxy('bus'));
    call = client(fleet.url);
    dev = await signUp(call, await adminToken(call), { tier: 'enterprise' });
    await createOrganization(call, dev);
    await installPack(fleet.url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });
    // Resolved once while the broker is there; later calls find the command in execution's cache.
    expect((await pollTask(call, dev.token, (await echo({ text: 'warm' })).body.data.task_id)).body.data.status).toBe('success');
  });

  afterAll(async () => {
    proxy?.resume();
    await fleet?.stop();
    await proxy?.close();
  });

  it('answers 503 for a task it cannot queue, keeps nothing of it, and runs it when asked again with the same Idempotency-Key', async () => {
    const key = { 'idempotency-key': `outage-${Date.now()}` };
    proxy.cut();
    const refused = await echo({ text: 'once' }, key).finally(() => proxy.resume());
    expectError(refused, 503, 'SERVICE_UNAVAILABLE');
    expect(refused.headers.get('retry-after'), JSON.stringify(refused.body)).toBe('2');

    // The bus reconnects with backoff; until then the same answer comes back.
    const until = Date.now() + 40_000;
    let again = await echo({ text: 'once' }, key);
    while (again.status === 503 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      again = await echo({ text: 'once' }, key);
    }
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    const done = await pollTask(call, dev.token, again.body.data.task_id);
    expect(done.body.data).toMatchObject({ status: 'success', result: { echoed: { text: 'once' } } });
  }, 90_000);

  it('answers 503 with Retry-After, not 502, when the connection drops after the job went out and before the broker confirmed it', async () => {
    await acceptedAgain();
    // The broker reads nothing more: the job goes out and its confirm never comes back; then the connection drops.
    proxy.hold();
    const submitting = echo({ text: 'unconfirmed' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    proxy.cut();
    const refused = await submitting;
    expectError(refused, 503, 'SERVICE_UNAVAILABLE');
    expect(refused.headers.get('retry-after')).toBe('2');
    proxy.resume();
    // Nothing of the task is kept: the caller was given no id.
    const kept = await fleet.infra.database.db.execute(sql`select count(*)::int as n from execution.tasks where input::text like '%unconfirmed%'`);
    expect((kept as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    await acceptedAgain();
  }, 90_000);

  /** Waits until a task is accepted again: the bus reconnects with backoff. */
  async function acceptedAgain(): Promise<void> {
    const until = Date.now() + 40_000;
    while ((await echo({ text: 'back?' })).status !== 202) {
      if (Date.now() > until) throw new Error('tasks were not accepted again within 40 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
});
