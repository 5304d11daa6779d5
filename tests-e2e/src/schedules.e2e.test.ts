import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralQueueName } from '@svc/bus';
import { svc as runSvc } from '@svc/cli/testing';
import { adminToken, createApiKey, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';
import { startExecutionReplica } from './support/replicas.js';

/**
 * A test-only faster clock for both schedulers: a minute of it passes in a second (it starts at
 * the real time), so an every-minute schedule ticks once a second. Only the schedulers read it;
 * runs, tasks and their timestamps keep real time.
 */
function fastClock(speed: number): () => Date {
  const start = Date.now();
  return () => new Date(start + (Date.now() - start) * speed);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MINUTE = 60_000;

const CODE = {
  echo: 'export default async (input) => ({ echoed: input });',
  nap: 'export default async (input) => new Promise((resolve) => setTimeout(() => resolve({ slept: input.ms }), input.ms));',
};

interface Run {
  task_id: string;
  status: string;
  scheduled_for: string | null;
  started_at: string | null;
  completed_at: string | null;
}

/**
 * Schedules through the gateway, on real Postgres, Redis and RabbitMQ, with two schedulers: the
 * fleet's execution API and a second replica of it on its own connections.
 */
describe.runIf(MODES.includes('real'))('schedules with two scheduler replicas (real infrastructure)', () => {
  const clock = fastClock(60);
  let fleet: TestFleet;
  let replica: { stop(): Promise<void> };
  let call: Call;
  let dev: TestUser;
  let stranger: TestUser;
  let other: TestUser;
  let ns: string;
  /** dev's organization's namespace, where a pack only its members and grantees see lives. */
  let orgNs: string;
  /** The ids of the tasks whose end was announced (`task.completed`, what webhooks carry). */
  const completed = new Set<string>();

  const create = async (body: Record<string, unknown>) => {
    const reply = await call('/api/v1/schedules', { token: dev.token, body: { cron: '* * * * *', ...body } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data as { id: string; next_run_at: string };
  };
  const runsOf = async (id: string, token = dev.token): Promise<Run[]> => {
    const reply = await call(`/api/v1/schedules/${id}/runs?limit=100`, { token });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data.runs;
  };
  const post = (path: string, token = dev.token) => call(path, { method: 'POST', token });

  beforeAll(async () => {
    fleet = await startTestFleet('real', { execution: { schedules: { clock, pollMs: 100 } } });
    replica = await startExecutionReplica(fleet, { clock, pollMs: 100 });
    await fleet.infra.bus.subscribe(ephemeralQueueName('e2e.schedule-runs'), ['task.completed'], async (message) => void completed.add(message.payload.task_id), { ephemeral: true });
    call = client(fleet.url);
    const admin = await adminToken(call);
    [dev, stranger, other] = [await signUp(call, admin, { tier: 'pro' }), await signUp(call, admin, { tier: 'pro' }), await signUp(call, admin, { tier: 'pro' })];
    ns = dev.slug;
    // Developer mode, which publishing needs, comes with an organization.
    orgNs = (await createOrganization(call, dev)).slug;
    await installPack(fleet.url, call, dev, {
      namespace: ns,
      name: 'clockwork',
      commands: [
        { name: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
        { name: 'nap', input_schema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] }, timeout: 20 },
      ],
      files: { 'commands/echo.js': CODE.echo, 'commands/nap.js': CODE.nap },
      manifest: { schedules: [{ command: 'echo', cron: '0 6 * * *', timezone: 'Europe/Berlin', input: { text: 'good morning' }, description: 'Morning echo' }] },
    });
  });
  afterAll(async () => {
    await replica?.stop();
    await fleet?.stop();
  });

  it('fires an every-minute schedule once per tick, never twice, as tasks of its creator that run', async () => {
    const { id } = await create({ command: `${ns}.echo`, input: { text: 'tick' }, overlap: 'queue' });
    // Six ticks of the fast clock, and a little more.
    await sleep(6_500);
    await post(`/api/v1/schedules/${id}/pause`);
    const runs = (await runsOf(id)).reverse();
    const ticks = runs.map((run) => Date.parse(run.scheduled_for!));
    expect(ticks.length).toBeGreaterThanOrEqual(5);
    expect(new Set(ticks).size).toBe(ticks.length);
    // Consecutive minutes: none missed, none fired twice.
    for (let i = 1; i < ticks.length; i += 1) expect(ticks[i]! - ticks[i - 1]!).toBe(MINUTE);
    for (const run of runs) {
      const task = await pollTask(call, dev.token, run.task_id);
      expect(task.body.data).toMatchObject({ status: 'success', result: { echoed: { text: 'tick' } } });
    }
    // The runs are the creator's tasks, nobody else's, announced and counted in usage as any task.
    expect((await call(`/api/v1/tasks/${runs[0]!.task_id}`, { token: stranger.token })).status).toBe(403);
    for (let i = 0; i < 100 && !runs.every((run) => completed.has(run.task_id)); i += 1) await sleep(50);
    expect(runs.filter((run) => !completed.has(run.task_id))).toEqual([]);
    const counted = async () => (await call('/api/v1/usage/by-pack', { token: dev.token })).body.data.packs.find((p: { pack: string }) => p.pack === `@${ns}/clockwork`)?.commands_executed ?? 0;
    for (let i = 0; i < 100 && (await counted()) < runs.length; i += 1) await sleep(50);
    expect(await counted()).toBeGreaterThanOrEqual(runs.length);
  });

  it('overlap skip: a slow command is never run twice at once, and the ticks it overlaps are skipped', async () => {
    // Each run sleeps 2.5 s: two or three ticks of the fast clock.
    const { id } = await create({ command: `${ns}.nap`, input: { ms: 2500 }, overlap: 'skip' });
    await sleep(7_500);
    await post(`/api/v1/schedules/${id}/pause`);
    const runs = (await runsOf(id)).reverse();
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
    const ended = await Promise.all(runs.map(async (run) => (await pollTask(call, dev.token, run.task_id)).body.data));
    for (let i = 1; i < ended.length; i += 1) expect(Date.parse(ended[i].started_at)).toBeGreaterThanOrEqual(Date.parse(ended[i - 1].completed_at));
    const schedule = (await call(`/api/v1/schedules/${id}`, { token: dev.token })).body.data;
    expect(schedule.skipped_ticks).toBeGreaterThanOrEqual(2);
  });

  it('pauses and resumes: nothing fires while paused, and it goes on from the next tick', async () => {
    const { id } = await create({ command: `${ns}.echo`, input: { text: 'pause' }, overlap: 'queue' });
    await sleep(1_500);
    const paused = await post(`/api/v1/schedules/${id}/pause`);
    expect(paused.body.data).toMatchObject({ enabled: false, paused_reason: 'paused', next_run_at: null });
    const before = (await runsOf(id)).length;
    expect(before).toBeGreaterThanOrEqual(1);
    await sleep(2_500);
    expect((await runsOf(id)).length).toBe(before);
    // The schedulers' clock runs a minute a second: read it before the resume, which takes the next tick after its own reading.
    const resumedAfter = clock().getTime();
    const resumed = await post(`/api/v1/schedules/${id}/resume`);
    expect(resumed.body.data).toMatchObject({ enabled: true, paused_reason: null });
    expect(Date.parse(resumed.body.data.next_run_at)).toBeGreaterThan(resumedAfter);
    await sleep(2_500);
    await post(`/api/v1/schedules/${id}/pause`);
    expect((await runsOf(id)).length).toBeGreaterThan(before);
  });

  it("creates a pack's proposed schedule paused for each tenant that installs the pack", async () => {
    const mine = (await call('/api/v1/schedules', { token: dev.token })).body.data.schedules.find((s: { proposed_by: string | null }) => s.proposed_by === `@${ns}/clockwork`);
    expect(mine).toMatchObject({ command: `${ns}.echo`, cron: '0 6 * * *', timezone: 'Europe/Berlin', input: { text: 'good morning' }, enabled: false, paused_reason: 'proposed_by_pack', next_run_at: null });
    const installed = await call('/api/v1/packs/install', { token: other.token, body: { name: `@${ns}/clockwork` } });
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    let theirs: Array<{ id: string; proposed_by: string; enabled: boolean; created_by: string }> = [];
    for (let i = 0; i < 100 && theirs.length === 0; i += 1) {
      theirs = (await call('/api/v1/schedules', { token: other.token })).body.data.schedules;
      if (theirs.length === 0) await sleep(50);
    }
    expect(theirs).toEqual([expect.objectContaining({ proposed_by: `@${ns}/clockwork`, enabled: false, created_by: other.id })]);
    expect(theirs[0]!.id).not.toBe(mine.id);
    // One command turns it on.
    expect((await post(`/api/v1/schedules/${theirs[0]!.id}/resume`, other.token)).body.data).toMatchObject({ enabled: true, paused_reason: null });
  });

  it('pauses itself, saying why, when its creator can no longer reach the command', async () => {
    await installPack(fleet.url, call, dev, { namespace: orgNs, name: 'vault', visibility: 'organization', commands: [{ name: 'peek' }] });
    const grant = { pack_namespace: orgNs, pack_name: 'vault', grantee_tenant_id: other.tenantId };
    expect((await call('/api/v1/registry/grants', { token: dev.token, body: grant })).status).toBe(200);
    const made = await call('/api/v1/schedules', { token: other.token, body: { command: `${orgNs}.peek`, input: { text: 'granted' }, cron: '* * * * *', overlap: 'queue' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { id } = made.body.data;
    for (let i = 0; i < 100 && (await runsOf(id, other.token)).length === 0; i += 1) await sleep(50);
    expect((await runsOf(id, other.token)).length).toBeGreaterThanOrEqual(1);
    expect((await call('/api/v1/registry/grants', { method: 'DELETE', token: dev.token, body: grant })).status).toBe(200);
    let schedule = (await call(`/api/v1/schedules/${id}`, { token: other.token })).body.data;
    for (let i = 0; i < 100 && schedule.enabled; i += 1) {
      await sleep(50);
      schedule = (await call(`/api/v1/schedules/${id}`, { token: other.token })).body.data;
    }
    expect(schedule).toMatchObject({ enabled: false, paused_reason: 'command_unavailable', next_run_at: null });
    // Turning it on again checks the command: still out of reach.
    const refused = await post(`/api/v1/schedules/${id}/resume`, other.token);
    expect([refused.status, refused.body.error.details.field]).toEqual([400, 'command']);
  });

  it("shows another tenant none of it: the list is empty, each schedule and its runs 404", async () => {
    const { id } = await create({ command: `${ns}.echo`, input: { text: 'private' }, cron: '0 0 1 1 *' });
    expect((await call('/api/v1/schedules', { token: stranger.token })).body.data).toMatchObject({ schedules: [], total: 0 });
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/pause'], ['POST', '/resume'], ['POST', '/trigger'], ['GET', '/runs']]) {
      const reply = await call(`/api/v1/schedules/${id}${path}`, { method, token: stranger.token, body: method === 'PATCH' ? { description: 'mine' } : undefined });
      expect([reply.status, reply.body.error?.code], `${method} ${path}`).toEqual([404, 'NOT_FOUND']);
    }
    expect((await call(`/api/v1/schedules/${id}`, { token: dev.token })).body.data.description).toBe('');
    // An API key, even the owner's, is not enough: schedules are managed with a signed-in session.
    const key = await createApiKey(call, dev, 'schedules');
    expect((await call('/api/v1/schedules', { token: key.key })).status).toBe(401);
    expect((await call(`/api/v1/schedules/${id}`, { token: key.key })).status).toBe(401);
  });

  it('svc schedule create, list, get, pause, resume, trigger, runs and delete, with --output json', async () => {
    const home = await mkdtemp(join(tmpdir(), 'svc-schedule-cli-'));
    try {
      const env = { HOME: home, SVC_CONFIG: join(home, 'config.toml'), SVC_API_URL: fleet.url, SVC_REGISTRY_URL: fleet.url, SVC_TOKEN: dev.token, NO_COLOR: '1' };
      const svc = async (...args: string[]) => {
        const reply = await runSvc([...args, '--output', 'json'], { cwd: home, env });
        return { code: reply.code, body: reply.json() };
      };
      const made = await svc('schedule', 'create', `${ns}.echo`, '--cron', '0 9 * * 1-5', '--timezone', 'Europe/Berlin', '--input', '{"text":"cli"}', '--description', 'from the CLI');
      expect(made.code, JSON.stringify(made.body)).toBe(0);
      const id = made.body.data.id;
      expect(made.body.data).toMatchObject({ command: `${ns}.echo`, cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', enabled: true, description: 'from the CLI' });
      expect((await svc('schedule', 'list')).body.data.schedules.map((s: { id: string }) => s.id)).toContain(id);
      expect((await svc('schedule', 'get', id)).body.data).toMatchObject({ id, input: { text: 'cli' } });
      expect((await svc('schedule', 'pause', id)).body.data).toMatchObject({ enabled: false });
      expect((await svc('schedule', 'resume', id)).body.data).toMatchObject({ enabled: true });
      const triggered = await svc('schedule', 'trigger', id);
      expect(triggered.body.data).toMatchObject({ status: 'pending' });
      expect((await pollTask(call, dev.token, triggered.body.data.task_id)).body.data.status).toBe('success');
      expect((await svc('schedule', 'runs', id)).body.data.runs).toEqual([expect.objectContaining({ task_id: triggered.body.data.task_id, scheduled_for: null })]);
      const bad = await svc('schedule', 'create', `${ns}.echo`, '--cron', 'often');
      expect([bad.code, bad.body.error.code, bad.body.error.details.field]).toEqual([3, 'VALIDATION_FAILED', 'cron']);
      expect((await svc('schedule', 'delete', id)).body.data).toEqual({ id, deleted: true });
      expect((await svc('schedule', 'get', id)).body.error.code).toBe('NOT_FOUND');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
