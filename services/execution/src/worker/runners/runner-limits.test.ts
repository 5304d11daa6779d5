import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunnerPool, type PoolRunRequest } from './runner-pool.js';
import { callContext, capturingLogger, PackFolders } from './runner-test-helpers.js';

const folders = new PackFolders();
const { logger, entries } = capturingLogger();
let packDir: string;
let pool: RunnerPool;

const HOOK_CALLS = 5;
let served = 0;

function request(command: string, input: unknown = {}): PoolRunRequest {
  return { packKey: 'limits@1', packDir, command, entry: `commands/${command}.mjs`, input, context: callContext(), timeoutMs: 30_000 };
}

beforeAll(async () => {
  packDir = await folders.create({
    // Spends 1.3 s of CPU time, past the 1 s soft limit below, and answers in spite of it. A
    // runner is PID 1 of its own namespace: it is told apart by a value it draws once.
    'commands/spin.mjs': `export default () => {
      const start = process.cpuUsage();
      for (;;) { const used = process.cpuUsage(start); if (used.user + used.system >= 1_300_000) break; }
      return (globalThis.runnerId ??= Math.random());
    };`,
    'commands/who.mjs': 'export default () => (globalThis.runnerId ??= Math.random());',
    'commands/hammer.mjs': `export default async (input, ctx) => {
      const answers = [];
      for (let i = 0; i < input.times; i += 1) {
        try { await ctx.storage.put('k', i); answers.push('ok'); } catch (error) { answers.push(error.code); }
      }
      return answers;
    };`,
  });
  const hooks = {
    'storage.put': async () => {
      served += 1;
      return { stored: true };
    },
  };
  pool = new RunnerPool({ logger, cpuSeconds: 1, hookCallsPerCall: HOOK_CALLS, hooks });
});

afterAll(async () => {
  await pool.close();
  await folders.removeAll();
});

describe('a runner past its CPU-time limit (RLIMIT_CPU)', () => {
  it('answers the call that crossed it, then is retired: the next call gets a new runner', async () => {
    // The pool requires its sandbox; kernel limits are part of it wherever it runs packs.
    const report = await pool.sandbox();
    expect(report.rlimits, report.missing.join('; ')).toBe(true);
    const spun = await pool.run(request('spin'));
    await vi.waitFor(() => expect(entries.some((e) => e.message === 'pack runner reached its CPU-time limit; retiring it')).toBe(true), { timeout: 10_000 });
    const { value: next } = await pool.run(request('who'));
    expect(next).not.toBe(spun.value);
  }, 60_000);
});

describe('ctx capability calls of one run', () => {
  it('are served up to the limit, then refused with HOOK_LIMIT without reaching the capability; the next run starts afresh', async () => {
    served = 0;
    const { value } = await pool.run(request('hammer', { times: HOOK_CALLS + 3 }));
    expect(value).toEqual([...Array<string>(HOOK_CALLS).fill('ok'), 'HOOK_LIMIT', 'HOOK_LIMIT', 'HOOK_LIMIT']);
    expect(served).toBe(HOOK_CALLS);
    await expect(pool.run(request('hammer', { times: 2 }))).resolves.toMatchObject({ value: ['ok', 'ok'] });
  });
});
