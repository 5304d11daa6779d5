import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TcpProxy } from '@svc/testing';
import { adminToken, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { MODES, startFleetThroughProxy, type TestFleet } from './support/fleet.js';

describe.runIf(MODES.includes('real'))('tasks while Postgres goes away (real infrastructure)', () => {
  let proxy: TcpProxy;
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;

  beforeAll(async () => {
    ({ fleet, proxy } = await startFleetThroughProxy('database'));
    call = client(fleet.url);
    dev = await signUp(call, await adminToken(call), { tier: 'enterprise' });
    await createOrganization(call, dev);
    await installPack(fleet.url, call, dev, {
      namespace: dev.slug,
      name: 'tools',
      commands: [{ name: 'nap' }, { name: 'echo' }],
      files: { 'commands/nap.js': 'export default async (input) => new Promise((resolve) => setTimeout(() => resolve({ n: input.n }), 300));' },
    });
  });

  afterAll(async () => {
    proxy?.resume();
    await fleet?.stop();
    await proxy?.close();
  });

  it('brings every task it accepted to success, with its own result, once Postgres is back', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 40; n++) {
      const reply = await call(`/api/v1/commands/${dev.slug}/nap?async=true`, { token: dev.token, body: { n } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(202);
      ids.push(reply.body.data.task_id);
    }
    // Cut while the first runs are under way: they end, and their tasks are claimed and finished, meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Meanwhile a task cannot be accepted or read: 503, to be tried again, not a 500.
    expectError(await call(`/api/v1/commands/${dev.slug}/nap?async=true`, { token: dev.token, body: { n: -1 } }), 503, 'SERVICE_UNAVAILABLE');
    expectError(await call(`/api/v1/tasks/${ids[0]}`, { token: dev.token }), 503, 'SERVICE_UNAVAILABLE');
    // A command not looked up before needs the registry's database: 503 through the bus too.
    expectError(await call(`/api/v1/commands/${dev.slug}/echo`, { token: dev.token, body: { text: 'x' } }), 503, 'SERVICE_UNAVAILABLE');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    proxy.resume();

    const done = await Promise.all(ids.map((id) => pollTask(call, dev.token, id, undefined, 30_000)));
    expect(done.map((reply) => [reply.body.data.status, reply.body.data.result])).toEqual(ids.map((_, n) => ['success', { n }]));
  });
});
