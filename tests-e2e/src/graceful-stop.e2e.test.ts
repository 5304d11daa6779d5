import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@svc/db';
import { makeDataDir } from '@svc/testing';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';
import { spawnReady } from './support/standalone.js';
import { claimedOtherThanOnce, submitNaps, tallyPack, taskStatuses, waitFor } from './support/tally.js';

const TASKS = 500;
/** The stopped worker's grace: every tenth task naps well past it and must be handed back, the rest nap a fraction of it. */
const GRACE_MS = 8000;
const napMs = (n: number) => (n % 10 === 0 ? GRACE_MS + 12_000 : 300);
/** `STOP_CLOSE_MS` of `@svc/platform`: what a process may spend closing after its grace. */
const STOP_CLOSE_MS = 5000;

/** Of the tasks `taskIds`, those running now that nap past the grace. */
async function longRunning(db: Db, taskIds: string[]): Promise<number> {
  if (taskIds.length === 0) return 0;
  const ids = sql.join(taskIds.map((id) => sql`${id}`), sql`, `);
  const result = await db.execute(sql`select count(*)::int as n from execution.tasks where status = 'started' and (input->>'ms')::int > ${GRACE_MS} and id::text in (${ids})`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

/** The tasks a worker's debug log says it began. */
const begunIn = (output: string): string[] => [...output.matchAll(/"message":"run begins"[^\n]*?"task_id":"([^"]+)"/g)].map((m) => m[1]!);

describe.runIf(MODES.includes('real'))(`a worker stopped with SIGTERM in the middle of ${TASKS} tasks (real infrastructure)`, () => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  const dataDir = makeDataDir('svc-stop-');
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    fleet = await startTestFleet('real', { commandGroupLimit: { points: 5000, durationSeconds: 60 } });
    call = client(fleet.url);
    dev = await signUp(call, await adminToken(call), { tier: 'enterprise' });
    await createOrganization(call, dev);
    await installPack(fleet.url, call, dev, tallyPack(dev.slug));
  }, 120_000);

  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await fleet?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes what it runs within the grace, hands back the rest, and exits in time: none lost, none run twice', async () => {
    // A worker process of its own beside the fleet's, which takes over its work: two pods, one stopped as in a rolling update.
    const env = Object.fromEntries(Object.entries(fleet.infraEnv).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
    ({ child } = await spawnReady('services/execution/dist/worker.js', { ...env, SVC_DATA_DIR: dataDir, LOG_LEVEL: 'debug', SVC_STOP_GRACE_MS: String(GRACE_MS) }, 'execution worker taking jobs', 60_000));
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const submitting = submitNaps(call, dev, { from: 0, to: TASKS, ms: napMs });
    // Signalled once the worker to be stopped holds runs that nap past the grace (the fleet's own
    // worker takes its share of the tasks too, so the count is of what this one began).
    await waitFor(async () => (await longRunning(fleet.infra.database.db, begunIn(output))) >= 2, 60_000, 'the worker to be stopped began no long task');
    const signalled = Date.now();
    const exited = new Promise<{ code: number | null; afterMs: number }>((resolve) => child!.once('exit', (code) => resolve({ code, afterMs: Date.now() - signalled })));
    child.kill('SIGTERM');
    expect((await submitting).refused).toEqual([]);

    const { code, afterMs } = await exited;
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(GRACE_MS + STOP_CLOSE_MS);
    // It held runs past its grace and gave their jobs back.
    expect(output).toContain('run stopped at the end of the stop grace');

    const db = fleet.infra.database.db;
    await waitFor(async () => (await taskStatuses(db)).success === TASKS, 120_000, `tasks did not all succeed: ${JSON.stringify(await taskStatuses(db))}`);
    // A run handed back has its claim taken back: a task claimed twice was begun twice.
    expect(await claimedOtherThanOnce(db)).toEqual({});
  }, 300_000);
});
