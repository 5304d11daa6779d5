import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralQueueName, type BusMessage } from '@svc/bus';
import { adminToken, createApiKey, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call, type Reply } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';

/** Command code of the test pack, one file per command. */
const CODE: Record<string, string> = {
  echo: 'export default async (input) => ({ echoed: input });',
  fail: 'class CustomError extends Error { constructor(m) { super(m); this.name = "CustomError"; } }\nexport default async () => { throw new CustomError("the thing broke"); };',
  spin: 'export default async () => { for (;;) {} };',
  nap: 'export default async (input, ctx) => new Promise((resolve, reject) => { const t = setTimeout(() => resolve({ slept: input.ms }), input.ms); ctx.signal.addEventListener("abort", () => { clearTimeout(t); reject(new Error("aborted")); }); });',
  count: 'let n = 0;\nexport default async () => ({ n: ++n });',
  flaky: 'let calls = 0;\nexport default async () => { calls += 1; if (calls % 2 === 1) throw new Error("odd call"); return { calls }; };',
  huge: 'export default async () => ({ blob: "x".repeat(2 * 1024 * 1024) });',
  nul: 'export default async (input) => { if (input.fail) throw new Error("bad \\u0000 byte"); return { echoed: input, made: "a\\u0000b" }; };',
};

const napSchema = { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] };

function commands() {
  return [
    { name: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    { name: 'fail' },
    { name: 'spin', timeout: 1 },
    { name: 'nap', input_schema: napSchema, timeout: 20 },
    { name: 'nap-medium', entry: 'commands/nap.js', input_schema: napSchema, timeout: 60, queue: 'medium' },
    { name: 'nap-long', entry: 'commands/nap.js', input_schema: napSchema, timeout: 600, queue: 'long' },
    { name: 'count' },
    { name: 'flaky', retries: 2 },
    { name: 'huge' },
    { name: 'nul' },
  ];
}

describe.each(MODES)('running commands (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  let stranger: TestUser;
  let ns: string;
  const events: BusMessage[] = [];

  const run = (name: string, body: unknown, options: { token?: string; headers?: Record<string, string>; query?: string } = {}) =>
    call(`/api/v1/commands/${ns}/${name}${options.query ?? ''}`, { token: options.token ?? dev.token, body, headers: options.headers });

  beforeAll(async () => {
    fleet = await startTestFleet(mode, { execution: { syncWaitMs: 5000 } });
    call = client(fleet.url);
    const admin = await adminToken(call);
    [dev, stranger] = [await signUp(call, admin), await signUp(call, admin)];
    await createOrganization(call, dev);
    ns = dev.slug;
    const files = Object.fromEntries(Object.entries(CODE).map(([name, code]) => [`commands/${name}.js`, code]));
    await installPack(fleet.url, call, dev, { namespace: ns, name: 'tools', commands: commands(), files });
    await fleet.infra.bus.subscribe(ephemeralQueueName(`e2e.execution-events-${mode}`), ['command.executed', 'task.*'], async (message) => {
      events.push(message);
    }, { ephemeral: true });
  });
  afterAll(() => fleet?.stop());

  /**
   * An echo's reply, inline or, where a fresh runner's start on a loaded machine outlasts the
   * fleet's 5 s wait, as the task the call became, soon done with the same result.
   */
  async function expectEchoed(reply: Reply, text: string): Promise<void> {
    if (reply.status === 202) expect((await pollTask(call, dev.token, reply.body.data.task_id)).body.data).toMatchObject({ status: 'success', result: { echoed: { text } } });
    else expect(reply.body.data.result, JSON.stringify(reply.body)).toEqual({ echoed: { text } });
  }

  async function eventFor(name: string, taskId: string): Promise<BusMessage> {
    for (let i = 0; i < 100; i += 1) {
      const found = events.find((e) => e.name === name && (e.payload as { task_id: string }).task_id === taskId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${name} event for task ${taskId}`);
  }

  async function eventWith(correlationId: string): Promise<BusMessage> {
    for (let i = 0; i < 100; i += 1) {
      const found = events.find((e) => e.correlationId === correlationId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no event with correlation id ${correlationId}`);
  }

  it('publishes command.executed, task.completed and task.failed with the correlation id', async () => {
    const ok = await run('echo', { text: 'evt' }, { query: '?async=true', headers: { 'x-request-id': `evt-ok-${mode}` } });
    const bad = await run('fail', {}, { query: '?async=true', headers: { 'x-request-id': `evt-bad-${mode}` } });
    const executed = await eventFor('command.executed', ok.body.data.task_id);
    expect(executed.payload).toMatchObject({ command: `${ns}.echo`, tenant_id: dev.tenantId, user_id: dev.id, duration_ms: expect.any(Number) });
    expect(executed.correlationId).toBe(`evt-ok-${mode}`);
    expect((await eventFor('task.completed', ok.body.data.task_id)).correlationId).toBe(`evt-ok-${mode}`);
    const failed = await eventFor('task.failed', bad.body.data.task_id);
    expect(failed.correlationId).toBe(`evt-bad-${mode}`);
    expect(failed.payload).toMatchObject({ status: 'failure', error: { type: 'CustomError' } });
  });

  it('answers a fast command inline', async () => {
    const reply = await run('echo', { text: 'hi' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ data: { result: { echoed: { text: 'hi' } }, execution: { duration_ms: expect.any(Number), status: 'completed' } } });
  });

  it('unpacks a newly installed pack on the worker before its first call', async () => {
    const packId = await installPack(fleet.url, call, dev, { namespace: ns, name: 'ahead', commands: [{ name: 'ahead' }], files: { 'commands/ahead.js': CODE.echo! } });
    const packDir = join(fleet.dataDir, 'packs', packId);
    let unpacked: string[] = [];
    for (let i = 0; i < 100 && unpacked.length === 0; i++) {
      unpacked = await readdir(packDir).catch(() => []);
      if (unpacked.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(unpacked).toHaveLength(1);
    expect(await readdir(join(packDir, unpacked[0]!, 'commands'))).toContain('ahead.js');
    expect((await run('ahead', { text: 'ready' })).body.data.result).toEqual({ echoed: { text: 'ready' } });
  });

  it('rejects input that breaks the schema, naming the field', async () => {
    const missing = await run('echo', {});
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.body.error.details).toMatchObject({ field: 'text', issue: expect.any(String) });
    const wrongType = await run('echo', { text: 5 });
    expectError(wrongType, 400, 'VALIDATION_FAILED');
    expect(wrongType.body.error.details).toMatchObject({ field: 'text', value: 5 });
    expectError(await run('nap', { ms: -1 }), 400, 'VALIDATION_FAILED');
  });

  it('answers 502 with the thrown class and message when a command throws', async () => {
    const reply = await run('fail', {});
    expectError(reply, 502, 'INTEGRATION_ERROR');
    expect(reply.body.error).toMatchObject({ type: 'CustomError', message: 'the thing broke' });
  });

  it('kills a command that runs past its timeout and answers 408, then keeps serving', async () => {
    expectError(await run('spin', {}), 408, 'TIMEOUT');
    await expectEchoed(await run('echo', { text: 'still here' }), 'still here');
  });

  it('rejects a result over 1 MiB', async () => {
    const reply = await run('huge', {});
    expectError(reply, 502, 'INTEGRATION_ERROR');
    expect(reply.body.error.type).toBe('ResultTooLargeError');
  });

  it('retries a failing command and answers with the retry that succeeded', async () => {
    const reply = await run('flaky', {});
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.result.calls % 2).toBe(0);
  });

  it('answers 404 for commands the caller cannot see or that do not exist', async () => {
    expectError(await run('nope', {}), 404, 'NOT_FOUND');
    expectError(await call('/api/v1/commands/no-such-ns/echo', { token: dev.token, body: {} }), 404, 'NOT_FOUND');
  });

  it('turns a call into a task when asked, and the task reaches success', async () => {
    for (const options of [{ query: '?async=true' }, { headers: { prefer: 'respond-async' } }]) {
      const reply = await run('echo', { text: 'later' }, options);
      expect(reply.status, JSON.stringify(reply.body)).toBe(202);
      const { task_id: taskId } = reply.body.data;
      expect(reply.body.data).toEqual({ task_id: taskId, status: 'pending', status_url: `/api/v1/tasks/${taskId}` });
      const done = await pollTask(call, dev.token, taskId);
      expect(done.body).toEqual({
        success: true,
        data: { task_id: taskId, status: 'success', result: { echoed: { text: 'later' } }, error: null, started_at: expect.any(String), completed_at: expect.any(String), correlation_id: expect.any(String), progress: null, logs: [] },
      });
    }
    expectError(await run('echo', { text: 'x' }, { query: '?async=maybe' }), 400, 'VALIDATION_FAILED');
  });

  it('keeps a task whose input, result or error holds U+0000 as written', async () => {
    const reply = await run('nul', { text: 'in\u0000put' }, { query: '?async=true' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    expect((await pollTask(call, dev.token, reply.body.data.task_id)).body.data).toMatchObject({ status: 'success', result: { echoed: { text: 'in\u0000put' }, made: 'a\u0000b' } });
    const failed = await run('nul', { fail: true }, { query: '?async=true' });
    expect((await pollTask(call, dev.token, failed.body.data.task_id)).body.data).toMatchObject({ status: 'failure', error: { message: 'bad \u0000 byte' } });
  });

  it('runs medium commands as tasks', async () => {
    const reply = await run('nap-medium', { ms: 10 });
    expect(reply.status).toBe(202);
    expect((await pollTask(call, dev.token, reply.body.data.task_id)).body.data).toMatchObject({ status: 'success', result: { slept: 10 } });
  });

  it('turns a fast command that outlives the sync wait into a task', async () => {
    const reply = await run('nap', { ms: 7000 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    expect((await pollTask(call, dev.token, reply.body.data.task_id)).body.data.status).toBe('success');
  });

  it('records a failed task with its error', async () => {
    const reply = await run('fail', {}, { query: '?async=true' });
    const done = await pollTask(call, dev.token, reply.body.data.task_id);
    expect(done.body.data).toMatchObject({ status: 'failure', result: null, error: { type: 'CustomError', message: 'the thing broke' } });
  });

  it('keeps no task for a synchronous run that succeeded in time, but does for one that failed', async () => {
    expect((await run('echo', { text: 'quick' }, { headers: { 'x-request-id': `unstored-${mode}` } })).status).toBe(200);
    const executed = await eventWith(`unstored-${mode}`);
    // Nobody was given this id: the event is the run's only trace.
    expectError(await call(`/api/v1/tasks/${(executed.payload as { task_id: string }).task_id}`, { token: dev.token }), 404, 'NOT_FOUND');

    const failed = await run('fail', {});
    expectError(failed, 502, 'INTEGRATION_ERROR');
    const task = await call(`/api/v1/tasks/${failed.body.error.details.task_id}`, { token: dev.token });
    expect(task.body.data).toMatchObject({ status: 'failure', error: { type: 'CustomError', message: 'the thing broke' } });
  });

  it('cancels a fast command that outlived the sync wait, and it stays revoked', async () => {
    const reply = await run('nap', { ms: 15_000 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const taskId = reply.body.data.task_id;
    expect((await call(`/api/v1/tasks/${taskId}/cancel`, { method: 'POST', token: dev.token })).status).toBe(200);
    // The worker's late record of the run must not undo the cancel.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await call(`/api/v1/tasks/${taskId}`, { token: dev.token })).body.data.status).toBe('revoked');
  });

  it('cancels a started task, stopping its work', async () => {
    const reply = await run('nap-medium', { ms: 15_000 });
    const taskId = reply.body.data.task_id;
    expect((await pollTask(call, dev.token, taskId, (s) => s === 'started')).body.data.status).toBe('started');
    const cancelled = await call(`/api/v1/tasks/${taskId}/cancel`, { method: 'POST', token: dev.token });
    expect(cancelled.body).toEqual({ success: true, data: { task_id: taskId, revoked: true } });
    const after = await pollTask(call, dev.token, taskId);
    expect(after.body.data.status).toBe('revoked');
    // The runner's work stopped: a new call is served well within the 15 s it would have waited,
    // inline or, on a loaded machine past the fleet's 5 s wait, as a task soon done.
    const began = Date.now();
    await expectEchoed(await run('echo', { text: 'next' }), 'next');
    expect(Date.now() - began).toBeLessThan(10_000);
  });

  it('cancels a pending task so that it never runs', async () => {
    // Two long tasks fill the long queue's two slots; the third waits.
    const blockers = [await run('nap-long', { ms: 1500 }), await run('nap-long', { ms: 1500 })];
    const waiting = await run('nap-long', { ms: 10 });
    const taskId = waiting.body.data.task_id;
    const cancelled = await call(`/api/v1/tasks/${taskId}/cancel`, { method: 'POST', token: dev.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    for (const blocker of blockers) expect((await pollTask(call, dev.token, blocker.body.data.task_id)).body.data.status).toBe('success');
    await new Promise((r) => setTimeout(r, 300));
    const after = await call(`/api/v1/tasks/${taskId}`, { token: dev.token });
    expect(after.body.data).toMatchObject({ status: 'revoked', started_at: null, result: null });
  });

  it('answers 409 when cancelling a finished task', async () => {
    const reply = await run('echo', { text: 'done' }, { query: '?async=true' });
    await pollTask(call, dev.token, reply.body.data.task_id);
    expectError(await call(`/api/v1/tasks/${reply.body.data.task_id}/cancel`, { method: 'POST', token: dev.token }), 409, 'TASK_TERMINAL');
  });

  it("keeps other users out of a task: 403, and 404 for unknown ids", async () => {
    const reply = await run('echo', { text: 'mine' }, { query: '?async=true' });
    const taskId = reply.body.data.task_id;
    expectError(await call(`/api/v1/tasks/${taskId}`, { token: stranger.token }), 403, 'PERMISSION_DENIED');
    expectError(await call(`/api/v1/tasks/${taskId}/cancel`, { method: 'POST', token: stranger.token }), 403, 'PERMISSION_DENIED');
    expectError(await call('/api/v1/tasks/00000000-0000-4000-8000-000000000000', { token: dev.token }), 404, 'NOT_FOUND');
    expectError(await call('/api/v1/tasks/not-a-task', { token: dev.token }), 404, 'NOT_FOUND');
    expectError(await call(`/api/v1/tasks/${taskId}`), 401, 'AUTHENTICATION_FAILED');
  });

  it('replays the first outcome for a repeated Idempotency-Key instead of running again', async () => {
    const key = `key-${mode}-${Date.now()}`;
    const first = await run('count', {}, { headers: { 'idempotency-key': key } });
    const second = await run('count', {}, { headers: { 'idempotency-key': key } });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.result).toEqual(first.body.data.result);
    expect((await run('count', {})).body.data.result.n).toBe(first.body.data.result.n + 1);
    expectError(await run('echo', { text: 'x' }, { headers: { 'idempotency-key': key } }), 409, 'IDEMPOTENCY_CONFLICT');
  });

  it('answers 409 for a repeated Idempotency-Key while the first call still runs', async () => {
    const key = `running-${mode}-${Date.now()}`;
    const first = run('nap', { ms: 800 }, { headers: { 'idempotency-key': key } });
    await new Promise((r) => setTimeout(r, 200));
    expectError(await run('nap', { ms: 800 }, { headers: { 'idempotency-key': key } }), 409, 'IDEMPOTENCY_CONFLICT');
    expect((await first).status).toBe(200);
  });

  it('runs commands and polls tasks with an API key', async () => {
    const key = (await createApiKey(call, dev, 'ci')).key;
    expect((await run('echo', { text: 'key' }, { token: key })).status).toBe(200);
    const task = await run('echo', { text: 'key' }, { token: key, query: '?async=true' });
    expect((await pollTask(call, key, task.body.data.task_id)).body.data.status).toBe('success');
  });
});

describe.each(MODES)('task results past their retention (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;

  beforeAll(async () => {
    fleet = await startTestFleet(mode, { execution: { retentionMs: 500 } });
    call = client(fleet.url);
    dev = await signUp(call, await adminToken(call));
    await createOrganization(call, dev);
    await installPack(fleet.url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });
  });
  afterAll(() => fleet?.stop());

  it('answers 410 once the result has expired', async () => {
    const reply = await call(`/api/v1/commands/${dev.slug}/echo?async=true`, { token: dev.token, body: { text: 'old' } });
    expect((await pollTask(call, dev.token, reply.body.data.task_id)).body.data.status).toBe('success');
    await new Promise((r) => setTimeout(r, 700));
    expectError(await call(`/api/v1/tasks/${reply.body.data.task_id}`, { token: dev.token }), 410, 'GONE');
  });
});
