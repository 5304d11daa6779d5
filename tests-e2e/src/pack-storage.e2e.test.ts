import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

/** One command that does what `input.op` says with the caller's storage. */
const NOTES = `export default async (input, ctx) => {
  switch (input.op) {
    case 'put': return ctx.storage.put(input.key, { note: input.note }, input.ttl ? { ttl: input.ttl } : {});
    case 'get': return { entry: await ctx.storage.get(input.key) };
    case 'list': return ctx.storage.list({ prefix: input.prefix });
    case 'delete': return ctx.storage.delete(input.key);
    case 'bad': return ctx.storage.put('no spaces allowed', { x: 1 });
  }
};`;

describe.each(oneMode('real'))('pack storage through ctx.storage (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let publisher: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  const notes = (user: TestUser, input: Record<string, unknown>) => call(`/api/v1/commands/${publisher.slug}/notes`, { token: user.token, body: input });

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    [publisher, alice, bob] = [await signUp(call, admin), await signUp(call, admin), await signUp(call, admin)];
    await createOrganization(call, publisher);
    await installPack(fleet.url, call, publisher, {
      namespace: publisher.slug,
      name: 'notebook',
      visibility: 'public',
      commands: [{ name: 'notes', input_schema: { type: 'object', properties: { op: { enum: ['put', 'get', 'list', 'delete', 'bad'] } }, required: ['op'] } }],
      files: { 'commands/notes.js': NOTES },
    });
  });
  afterAll(() => fleet?.stop());

  it("writes and reads under the tenant of the caller, never the pack owner's", async () => {
    const put = await notes(alice, { op: 'put', key: 'todo:1', note: 'buy milk' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.result).toMatchObject({ key: 'todo:1', created: true, expires_at: null });

    const read = await notes(alice, { op: 'get', key: 'todo:1' });
    expect(read.body.data.result.entry).toMatchObject({ key: 'todo:1', value: { note: 'buy milk' } });
    const listed = await notes(alice, { op: 'list', prefix: 'todo:' });
    expect(listed.body.data.result).toMatchObject({ keys: ['todo:1'], total: 1 });

    // The same data is the caller's own storage over REST.
    const rest = await call('/api/v1/storage/todo:1', { token: alice.token });
    expect(rest.body.data.value).toEqual({ note: 'buy milk' });
    // The pack owner does not see it.
    expect((await call('/api/v1/storage/todo:1', { token: publisher.token })).status).toBe(404);
  });

  it("keeps a second tenant running the same command out of the first tenant's data", async () => {
    await notes(alice, { op: 'put', key: 'shared-name', note: 'alice only' });
    expect((await notes(bob, { op: 'get', key: 'shared-name' })).body.data.result.entry).toBeNull();
    expect((await notes(bob, { op: 'list', prefix: '' })).body.data.result.keys).not.toContain('shared-name');
    await notes(bob, { op: 'put', key: 'shared-name', note: 'bob only' });
    expect((await notes(alice, { op: 'get', key: 'shared-name' })).body.data.result.entry.value).toEqual({ note: 'alice only' });
    expect((await notes(bob, { op: 'delete', key: 'shared-name' })).body.data.result).toEqual({ deleted: true });
    expect((await notes(alice, { op: 'get', key: 'shared-name' })).body.data.result.entry.value).toEqual({ note: 'alice only' });
  });

  it('hands storage errors to the pack as errors it can see', async () => {
    const reply = await notes(alice, { op: 'bad' });
    expect(reply.status).toBe(502);
    expect(reply.body.error.type).toBe('ValidationError');
  });
});
