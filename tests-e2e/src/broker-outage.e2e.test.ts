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
    expectError(await echo({ text: 'once' }, key), 503, 'SERVICE_UNAVAILABLE');
    proxy.resume();

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
});
