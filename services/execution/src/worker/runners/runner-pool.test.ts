import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotFoundError, ServiceUnavailableError } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandCancelledError, CommandError, CommandTimeoutError, ResultTooLargeError, RunnerCrashedError, RunnersBusyError } from './runner-errors.js';
import { RunnerPool, type PoolRunRequest } from './runner-pool.js';
import type { Hooks } from './runner-process.js';
import { CALL_TIMEOUT_MS, callContext, capturingLogger, PackFolders } from './runner-test-helpers.js';

const folders = new PackFolders();
const { logger, entries } = capturingLogger();
const stores = new Map<string, Map<string, unknown>>();
const storeOf = (tenant: string) => stores.get(tenant) ?? stores.set(tenant, new Map()).get(tenant)!;
const hooks: Hooks = {
  'storage.put': async (call, args) => {
    const { key, value } = args as { key: string; value: unknown };
    storeOf(call.tenant).set(key, value);
    return { key, created: true, expires_at: null };
  },
  'storage.get': async (call, args) => {
    const { key } = args as { key: string };
    const store = storeOf(call.tenant);
    return store.has(key) ? { key, value: store.get(key) } : null;
  },
  'storage.delete': async (_call, args) => {
    throw new NotFoundError(`No value stored under "${(args as { key: string }).key}"`);
  },
};

let packDir: string;
let pool: RunnerPool;
const pools: RunnerPool[] = [];

function newPool(options: Partial<ConstructorParameters<typeof RunnerPool>[0]> = {}): RunnerPool {
  const created = new RunnerPool({ logger, hooks, memoryLimitMb: 64, killGraceMs: 200, ...options });
  pools.push(created);
  return created;
}

function request(packKey: string, command: string, input: unknown = {}, extra: Partial<PoolRunRequest> = {}): PoolRunRequest {
  return { packKey, packDir, command, entry: `commands/${command}.mjs`, input, context: callContext(), timeoutMs: CALL_TIMEOUT_MS, ...extra };
}

beforeAll(async () => {
  packDir = await folders.create({
    'commands/echo.mjs': `export default async (input, ctx) => ({ input, tenant: ctx.tenant, user: ctx.user, correlationId: ctx.correlationId });`,
    'commands/fail.mjs': `class QuotaExceeded extends Error {}\nexport default async () => { throw new QuotaExceeded('quota of 3 exceeded'); };`,
    'commands/spin.mjs': `export default () => { for (;;) {} };`,
    'commands/wait.mjs': `export default (input, ctx) => new Promise((resolve, reject) => {
      ctx.signal.addEventListener('abort', () => { ctx.log.warn('aborted by', ctx.signal.reason.name); reject(ctx.signal.reason); });
      ctx.log.info('waiting');
    });`,
    'commands/concurrency.mjs': `let running = 0; let most = 0;
      export default async () => { running += 1; most = Math.max(most, running); await new Promise((r) => setTimeout(r, 20)); running -= 1; return most; };`,
    'commands/hog.mjs': `export default () => { const hoard = []; for (;;) hoard.push(new Array(1e5).fill(1)); };`,
    'commands/buffers.mjs': `export default () => {
      const hoard = [];
      try { for (;;) hoard.push(Buffer.alloc(16 * 1024 * 1024, 1)); } catch (error) { return { heldMb: hoard.length * 16, error: error.message }; }
    };`,
    'commands/exit.mjs': `export default () => process.exit(3);`,
    'commands/slow.mjs': `export default (input) => new Promise((resolve) => setTimeout(() => resolve('slept'), input.ms));`,
    'commands/big.mjs': `export default () => ({ blob: 'x'.repeat(1024 * 1024) });`,
    'commands/storage.mjs': `export default async (input, ctx) => {
      if (input.value !== undefined) await ctx.storage.put(input.key, input.value);
      return { found: await ctx.storage.get(input.key) };
    };`,
    'commands/delete.mjs': `export default async (input, ctx) => {
      try { return await ctx.storage.delete(input.key); } catch (error) { return { name: error.name, code: error.code, message: error.message }; }
    };`,
    'commands/remember.mjs': `export default (input) => { const seen = (globalThis.seen ??= []); const before = [...seen]; seen.push(input.secret); return before; };`,
    'commands/ssh.mjs': `export default (input, ctx) => ctx.ssh.exec('web-1', 'uptime');`,
    'commands/progress.mjs': `export default async (input, ctx) => { await ctx.progress(1, 2, 'half'); await ctx.progress(2); return 'done'; };`,
    'commands/look.mjs': `import { readdirSync, writeFileSync } from 'node:fs';
      const attempt = (fn) => { try { fn(); return 'ok'; } catch (error) { return error.code; } };
      export default (input) => ({ here: readdirSync('.').sort(), other: attempt(() => readdirSync(input.other)), write: attempt(() => writeFileSync('mine.txt', 'x')) });`,
    'commands/ssh-timeouts.mjs': `export default async (input, ctx) => [await ctx.ssh.exec('web-1', 'uptime', { timeout: 1234 }), await ctx.ssh.exec('web-1', 'uptime', { timeoutMs: 99 })];`,
  });
  pool = newPool();
});

afterAll(async () => {
  await Promise.all(pools.map((each) => each.close()));
  await folders.removeAll();
});

describe('RunnerPool', () => {
  it('runs a command and returns its result with the call context', async () => {
    const outcome = await pool.run(request('echo@1', 'echo', { name: 'Ada' }));
    expect(outcome.value).toEqual({ input: { name: 'Ada' }, tenant: 'tenant-a', user: 'user-a', correlationId: 'corr-1' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('serves many concurrent first calls from one runner start', async () => {
    const before = pool.stats().assigned;
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => pool.run(request('burst@1', 'echo', { i }))));
    expect(outcomes.map((o) => (o.value as { input: { i: number } }).input.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(pool.stats().assigned).toBe(before + 1);
  });

  it('reuses the warm runner for the next call', async () => {
    await pool.run(request('warm@1', 'echo'));
    const before = pool.stats().assigned;
    await pool.run(request('warm@1', 'echo'));
    expect(pool.stats().assigned).toBe(before);
  });

  it('queues calls beyond the per-runner concurrency bound', async () => {
    const bounded = newPool({ maxConcurrentCalls: 2 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => bounded.run(request('bounded@1', 'concurrency'))));
    expect(Math.max(...outcomes.map((o) => o.value as number))).toBe(2);
  });

  it('rejects with a CommandError carrying the thrown class name and message', async () => {
    const error = await pool.run(request('fail@1', 'fail')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({ type: 'QuotaExceeded', message: 'quota of 3 exceeded', code: 'COMMAND_FAILED' });
  });

  it('kills a runner stuck past the timeout and serves the next call from a new one', async () => {
    await pool.run(request('spin@1', 'echo'));
    await vi.waitFor(() => expect(pool.stats().spares.node).toBe('ready'), { timeout: 10_000 });
    const before = pool.stats();
    await expect(pool.run(request('spin@1', 'spin', {}, { timeoutMs: 300 }))).rejects.toBeInstanceOf(CommandTimeoutError);
    expect((await pool.run(request('spin@1', 'echo', { again: true }))).value).toMatchObject({ input: { again: true } });
    expect(pool.stats().assigned).toBe(before.assigned + 1);
    await vi.waitFor(() => expect(pool.stats().live).toBe(before.live), { timeout: 10_000 });
  });

  it('aborts ctx.signal when the caller cancels, and rejects the call', async () => {
    const controller = new AbortController();
    const context = callContext({ correlationId: 'corr-cancel' });
    const running = pool.run(request('wait@1', 'wait', {}, { context, signal: controller.signal }));
    // A runner's start on a loaded machine may take longer than vi.waitFor's default second.
    await vi.waitFor(() => expect(entries.some((e) => e.message === 'waiting' && e.correlation_id === 'corr-cancel')).toBe(true), { timeout: 10_000 });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(CommandCancelledError);
    await vi.waitFor(() => expect(entries.some((e) => e.message === 'aborted by AbortError' && e.correlation_id === 'corr-cancel')).toBe(true), { timeout: 10_000 });
  });

  it('fails only the calls of a runner that runs out of heap, and keeps serving other packs', async () => {
    const other = pool.run(request('neighbour@1', 'echo', { ok: true }));
    const error = await pool.run(request('hog@1', 'hog', {}, { timeoutMs: 20_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunnerCrashedError);
    expect(error).toMatchObject({ reason: 'out_of_memory' });
    expect((await other).value).toMatchObject({ input: { ok: true } });
    expect((await pool.run(request('neighbour@1', 'echo', { after: true }))).value).toMatchObject({ input: { after: true } });
  });

  it('holds off-heap memory to the ceiling, even in a loop that never yields to a timer', async () => {
    expect(await pool.sandbox()).toMatchObject({ rlimits: true });
    // 64 MB of heap: at most 2 × 64 + 64 MB in all. The kernel refuses more (RLIMIT_DATA), so
    // the pack sees the allocation fail, or V8 gives up and the runner dies of it.
    const outcome = await pool.run(request('buffers@1', 'buffers', {}, { timeoutMs: 20_000 })).catch((e: unknown) => e);
    if (outcome instanceof RunnerCrashedError) expect(outcome.reason).toBe('out_of_memory');
    else expect((outcome as { value: unknown }).value).toMatchObject({ heldMb: expect.toSatisfy((mb: number) => mb <= 192), error: 'Array buffer allocation failed' });
  });

  it('fails every call on a runner that exits, and only those', async () => {
    const waiting = pool.run(request('exit@1', 'wait'));
    const other = pool.run(request('exit-neighbour@1', 'echo'));
    await expect(pool.run(request('exit@1', 'exit'))).rejects.toBeInstanceOf(RunnerCrashedError);
    await expect(waiting).rejects.toMatchObject({ reason: 'exited' });
    await expect(other).resolves.toBeDefined();
  });

  it('rejects a result whose JSON is over 1 MiB', async () => {
    await expect(pool.run(request('big@1', 'big'))).rejects.toBeInstanceOf(ResultTooLargeError);
  });

  it('serves ctx.storage through hooks on behalf of the calling tenant', async () => {
    const put = await pool.run(request('storage@1', 'storage', { key: 'colour', value: 'blue' }));
    expect(put.value).toEqual({ found: { key: 'colour', value: 'blue' } });
    const otherTenant = await pool.run(request('storage@1', 'storage', { key: 'colour' }, { context: callContext({ tenant: 'tenant-b' }) }));
    expect(otherTenant.value).toEqual({ found: null });
  });

  it("hands a hook's AppError to the pack with its type, code and message", async () => {
    const { value } = await pool.run(request('storage@1', 'delete', { key: 'missing' }));
    expect(value).toEqual({ name: 'NotFoundError', code: 'NOT_FOUND', message: 'No value stored under "missing"' });
  });

  it('fails a call to a capability no hook serves, inside the pack', async () => {
    const error = await pool.run(request('ssh@1', 'ssh')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({ details: { code: 'UNKNOWN_HOOK' } });
    expect((error as Error).message).toContain('ssh.exec');
  });

  it('serves a hook given with a call to that call only (ctx.progress), before the pool\'s', async () => {
    const reports: Array<{ user: string; args: unknown }> = [];
    const own: Hooks = { 'task.progress': async (call, args) => (reports.push({ user: call.user, args }), null) };
    const [mine, other] = await Promise.all([
      pool.run(request('progress@1', 'progress', {}, { hooks: own, context: callContext({ user: 'user-a' }) })),
      pool.run(request('progress@1', 'progress', {}, { context: callContext({ user: 'user-b' }) })).catch((e: unknown) => e),
    ]);
    expect(mine.value).toBe('done');
    expect(reports).toEqual([
      { user: 'user-a', args: { done: 1, total: 2, message: 'half' } },
      { user: 'user-a', args: { done: 2 } },
    ]);
    // The same runner's other call has no such hook.
    expect(other).toMatchObject({ details: { code: 'UNKNOWN_HOOK' } });
  });

  it("takes ctx.ssh.exec's timeout as {timeout} (ms, as child_process.exec names it) or {timeoutMs}", async () => {
    const echoing = newPool({ hooks: { ...hooks, 'ssh.exec': async (_call, args) => args } });
    const { value } = await echoing.run(request('ssh-timeouts@1', 'ssh-timeouts'));
    expect(value).toEqual([
      { target: 'web-1', command: 'uptime', timeoutMs: 1234 },
      { target: 'web-1', command: 'uptime', timeoutMs: 99 },
    ]);
  });

  it('reaps a runner left idle', async () => {
    const reaping = newPool({ idleTimeoutMs: 100 });
    await reaping.run(request('idle@1', 'echo'));
    expect(reaping.stats().live).toBe(1);
    // The spare started after the call idles out too.
    await vi.waitFor(() => expect(reaping.stats().live).toBe(0), { timeout: 10_000 });
  });

  it('evicts the least recently used idle runner at the cap, and refuses when all are busy', async () => {
    const capped = newPool({ maxRunners: 1 });
    await capped.run(request('cap-a@1', 'echo'));
    await capped.run(request('cap-b@1', 'echo'));
    expect(capped.stats().starts).toBe(2);
    await vi.waitFor(() => expect(capped.stats().live).toBe(1));
    const controller = new AbortController();
    const busy = capped.run(request('cap-b@1', 'wait', {}, { signal: controller.signal }));
    await expect(capped.run(request('cap-a@1', 'echo'))).rejects.toMatchObject({ status: 503, details: { reason: 'pool_full', limit: 1 } });
    controller.abort();
    await expect(busy).rejects.toBeInstanceOf(CommandCancelledError);
  });

  it("runs each tenant's calls in runners of its own: nothing a call leaves in memory reaches another tenant's call", async () => {
    const as = (tenant: string, secret: string) => pool.run(request('remember@1', 'remember', { secret }, { context: callContext({ tenant }) }));
    const before = pool.stats().assigned;
    expect((await as('tenant-a', 'a-1')).value).toEqual([]);
    expect((await as('tenant-b', 'b-1')).value).toEqual([]);
    expect((await as('tenant-a', 'a-2')).value).toEqual(['a-1']);
    expect((await as('tenant-b', 'b-2')).value).toEqual(['b-1']);
    expect(pool.stats().assigned).toBe(before + 2);
  });

  it("holds a tenant to its runners: its own idle ones make way, busy ones refuse it, and other tenants start theirs", async () => {
    // No spare: the count of live runners is the tenant's alone.
    const shared = newPool({ maxRunners: 8, spare: false });
    const as = (tenant: string, packKey: string, command = 'echo', signal?: AbortSignal) =>
      shared.run(request(packKey, command, {}, { context: callContext({ tenant }), tenantRunners: 2, signal }));
    await as('flooder', 'one@1');
    await as('flooder', 'two@1');
    // A third pack: the tenant's idle runner used longest ago makes way.
    await as('flooder', 'three@1');
    await vi.waitFor(() => expect(shared.stats().live).toBe(2));
    const controller = new AbortController();
    const busy = [as('flooder', 'two@1', 'wait', controller.signal), as('flooder', 'three@1', 'wait', controller.signal)];
    const refused = await as('flooder', 'one@1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RunnersBusyError);
    expect(refused).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', details: { reason: 'tenant_runners', limit: 2, retry_after: 1 } });
    await expect(as('neighbour', 'one@1')).resolves.toBeDefined();
    controller.abort();
    await Promise.allSettled(busy);
  });

  it('evicts the runners of an uninstalled pack', async () => {
    await Promise.all(['evict-a@1.0.0', 'evict-a@2.0.0', 'evict-b@1.0.0'].map((key) => pool.run(request(key, 'echo'))));
    // The spare the first calls have started is up, and no other is starting.
    await vi.waitFor(() => expect(pool.stats().spares.node).toBe('ready'), { timeout: 10_000 });
    const before = pool.stats();
    await pool.evict('evict-a@');
    expect(pool.stats().live).toBe(before.live - 2);
    await pool.run(request('evict-b@1.0.0', 'echo'));
    expect(pool.stats().assigned).toBe(before.assigned);
    await pool.run(request('evict-a@1.0.0', 'echo'));
    expect(pool.stats().assigned).toBe(before.assigned + 1);
  });

  it('retires the runners of replaced code: their calls finish on them, then they stop, and the next call starts anew', async () => {
    const reloading = newPool({ spare: false });
    // Retired while it starts with a call waiting for it (or, on a quick start, runs it), and once up with a call running.
    const whileStarting = reloading.run(request('dev@0', 'slow', { ms: 200 }));
    await vi.waitFor(() => expect(reloading.stats().live).toBe(1), { timeout: 5000, interval: 5 });
    reloading.retire('dev@0');
    expect((await whileStarting).value).toBe('slept');
    await vi.waitFor(() => expect(reloading.stats().live).toBe(0), { timeout: 5000 });
    const running = reloading.run(request('dev@1', 'slow', { ms: 300 }));
    await vi.waitFor(() => expect(reloading.stats()).toMatchObject({ live: 1, load: 1 }), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    reloading.retire('dev@1');
    expect((await running).value).toBe('slept');
    await vi.waitFor(() => expect(reloading.stats().live).toBe(0), { timeout: 5000 });
    expect((await reloading.run(request('dev@1', 'echo', { again: true }))).value).toMatchObject({ input: { again: true } });
    expect(reloading.stats()).toMatchObject({ starts: 3, assigned: 3 });
  });

  it('still kills a retired runner whose call runs past its timeout', async () => {
    const reloading = newPool({ spare: false });
    const warm = await reloading.run(request('dev-spin@0', 'echo'));
    expect(warm.value).toBeDefined();
    const spinning = reloading.run(request('dev-spin@0', 'spin', {}, { timeoutMs: 300 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    reloading.retire('dev-spin@0');
    await expect(spinning).rejects.toBeInstanceOf(CommandTimeoutError);
    await vi.waitFor(() => expect(reloading.stats().live).toBe(0), { timeout: 5000 });
  });

  describe('a spare runner, started ahead with no pack', () => {
    let slotsDir: string;
    beforeAll(async () => {
      slotsDir = await mkdtemp(join(tmpdir(), 'svc-slots-'));
    });
    afterAll(() => rm(slotsDir, { recursive: true, force: true }));

    it('takes the next first call without a start on its path, and another is started once it is answered', async () => {
      const ahead = newPool({ slotsDir });
      await ahead.prepareSpare();
      await vi.waitFor(() => expect(ahead.stats()).toMatchObject({ spares: { node: 'ready' }, starts: 1 }), { timeout: 10_000 });
      const outcome = await ahead.run(request('ahead@1', 'echo', { first: true }));
      expect(outcome.value).toMatchObject({ input: { first: true } });
      expect(ahead.stats()).toMatchObject({ starts: 1, assigned: 1 });
      expect(ahead.stats().spares).toEqual({});
      await vi.waitFor(() => expect(ahead.stats()).toMatchObject({ spares: { node: 'ready' }, starts: 2, live: 2 }), { timeout: 10_000 });
      expect((await ahead.run(request('ahead@1', 'echo', { again: true }))).value).toMatchObject({ input: { again: true } });
      expect(ahead.stats()).toMatchObject({ starts: 2, assigned: 1 });
    });

    it("is given its pack's files alone, read-only: not the folder they came from, nor another pack's", async () => {
      const other = await folders.create({ 'secret.txt': 'not yours' });
      const confined = newPool({ slotsDir });
      await confined.prepareSpare();
      await vi.waitFor(() => expect(confined.stats().spares.node).toBe('ready'), { timeout: 10_000 });
      const { value } = await confined.run(request('look@1', 'look', { other }));
      expect(value).toEqual({ here: ['commands', 'pack.yaml'], other: 'ERR_ACCESS_DENIED', write: 'ERR_ACCESS_DENIED' });
      // The pack's own folder is the spare's only way to the files: the original is out of reach too.
      expect((await confined.run(request('look@1', 'look', { other: packDir }))).value).toMatchObject({ other: 'ERR_ACCESS_DENIED' });
    });

    it('serves one tenant: the next tenant gets the next spare, fresh', async () => {
      const fresh = newPool({ slotsDir });
      const as = (tenant: string, secret: string) => fresh.run(request('remember@1', 'remember', { secret }, { context: callContext({ tenant }) }));
      for (const [tenant, secret] of [['tenant-a', 'a-1'], ['tenant-b', 'b-1'], ['tenant-c', 'c-1']]) {
        await fresh.prepareSpare();
        await vi.waitFor(() => expect(fresh.stats().spares.node).toBe('ready'), { timeout: 10_000 });
        expect((await as(tenant!, secret!)).value).toEqual([]);
      }
      expect((await as('tenant-b', 'b-2')).value).toEqual(['b-1']);
      expect(fresh.stats().assigned).toBe(3);
    });

    it('stops when idle and leaves no folder behind; none is kept at the cap or when spares are off', async () => {
      const own = await mkdtemp(join(slotsDir, 'idle-'));
      const slotsIn = async () => (await Promise.all((await readdir(own)).map((name) => readdir(join(own, name))))).flat();
      const idle = newPool({ slotsDir: own, idleTimeoutMs: 150 });
      await idle.prepareSpare();
      await vi.waitFor(() => expect(idle.stats().spares.node).toBe('ready'), { timeout: 10_000 });
      expect(await slotsIn()).toHaveLength(1);
      await vi.waitFor(() => expect(idle.stats().live).toBe(0), { timeout: 10_000 });
      expect(idle.stats().spares).toEqual({});
      await vi.waitFor(async () => expect(await slotsIn()).toEqual([]));
      await idle.close();
      expect(await readdir(own)).toEqual([]);

      // Two runners at most: the first call's, and the spare the second call takes.
      const capped = newPool({ slotsDir, maxRunners: 2 });
      await capped.run(request('capped-a@1', 'echo'));
      await vi.waitFor(() => expect(capped.stats()).toMatchObject({ live: 2, spares: { node: 'ready' } }), { timeout: 10_000 });
      await capped.run(request('capped-b@1', 'echo'));
      await capped.prepareSpare();
      await new Promise((r) => setTimeout(r, 300));
      expect(capped.stats()).toMatchObject({ live: 2, assigned: 2 });
      expect(capped.stats().spares).toEqual({});

      const off = newPool({ slotsDir, spare: false });
      await off.run(request('off@1', 'echo'));
      await off.prepareSpare();
      await new Promise((r) => setTimeout(r, 300));
      expect(off.stats()).toMatchObject({ live: 1, starts: 1 });
      expect(off.stats().spares).toEqual({});
    });
  });

  it('refuses calls once closed', async () => {
    const closing = newPool();
    await closing.run(request('close@1', 'echo'));
    await closing.close();
    expect(closing.stats().live).toBe(0);
    await expect(closing.run(request('close@1', 'echo'))).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
