import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../../config.js';
import { TaskRepository, type Lease, type NewTask, type TaskEnding } from './task.repository.js';

function newTask(text: string): NewTask {
  return {
    userId: randomUUID(),
    tenantId: randomUUID(),
    namespace: 'acme',
    command: 'echo',
    packId: randomUUID(),
    packName: 'tools',
    packVersion: '1.0.0',
    packVersionId: randomUUID(),
    entry: 'commands/echo.js',
    queue: 'medium',
    async: true,
    input: { text },
    maxRetries: 0,
    timeoutMs: 5000,
    correlationId: randomUUID(),
  };
}

const RETENTION_MS = 60_000;
/** Leases that do not lapse while a test runs, one worker's and another's. */
const LEASE: Lease = { owner: 'worker-a', ms: 60_000 };
const OTHER: Lease = { owner: 'worker-b', ms: 60_000 };
const success = (result: unknown): TaskEnding => ({ status: 'success', result, durationMs: 12.6, retentionMs: RETENTION_MS });

describe.each(testDatabaseKinds())('new tasks, claims and endings written together on $name', (kind) => {
  let test: TestDatabase;
  let tasks: TaskRepository;
  beforeAll(async () => {
    test = await kind.open();
    await test.database.migrate({ migrationsFolder: EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
    tasks = new TaskRepository(test.database.db);
  });
  afterAll(() => test.dispose());

  it('makes the tasks asked for in one turn, each with its own row and every other column at its default', async () => {
    const given = [newTask('a'), newTask('b'), { ...newTask('a "quoted", {braced} \\ back\u0000slash'), async: false, queue: 'fast' as const }];
    const before = Date.now();
    const made = await Promise.all(given.map((task) => tasks.insert(task)));
    expect(new Set(made.map((row) => row.id)).size).toBe(3);
    made.forEach((row, i) => {
      expect(row).toMatchObject({ ...given[i], status: 'pending', attempts: 0, result: null, error: null, durationMs: null, startedAt: null, completedAt: null, resultExpiresAt: null, resultPurged: false });
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });
    expect(await tasks.find(made[2]!.id)).toEqual(made[2]);
  });

  it('claims the tasks asked for in one turn, each answered with its own row', async () => {
    const made = await Promise.all(['a', 'b', 'c'].map((text) => tasks.insert(newTask(text))));
    const claimed = await Promise.all(made.map((task) => tasks.claim(task.id, LEASE)));
    expect(claimed.map((row) => [row?.id, row?.status, row?.attempts, row?.input])).toEqual(made.map((task) => [task.id, 'started', 1, task.input]));
    expect(claimed.every((row) => row?.startedAt instanceof Date)).toBe(true);
  });

  it('answers undefined for the tasks of a turn that cannot be claimed: revoked, finished or unknown', async () => {
    const [live, revoked, finished] = await Promise.all(['live', 'revoked', 'finished'].map((text) => tasks.insert(newTask(text))));
    await tasks.revoke(revoked!.id, RETENTION_MS);
    await tasks.claim(finished!.id, LEASE);
    await tasks.finish(finished!.id, success({ done: true }));
    const claimed = await Promise.all([live!.id, revoked!.id, finished!.id, randomUUID()].map((id) => tasks.claim(id, LEASE)));
    expect(claimed.map((row) => row?.status)).toEqual(['started', undefined, undefined, undefined]);
  });

  it('answers every reader of a task in one turn, the same task asked for several times included', async () => {
    const [a, b] = await Promise.all(['read a', 'read b'].map((text) => tasks.insert(newTask(text))));
    const unknown = randomUUID();
    const read = await Promise.all([a!.id, b!.id, a!.id, unknown, a!.id].map((id) => tasks.find(id)));
    expect(read.map((row) => row?.id)).toEqual([a!.id, b!.id, a!.id, undefined, a!.id]);
    expect(read[0]).toEqual(a);
    expect(read[1]).toEqual(b);
  });

  it('gives a task claimed twice in one turn to the first claim only, as one after the other would: its lease holds', async () => {
    const task = await tasks.insert(newTask('twice'));
    const claimed = await Promise.all([tasks.claim(task.id, LEASE), tasks.claim(task.id, OTHER)]);
    expect(claimed.map((row) => row && [row.attempts, row.leaseOwner])).toEqual([[1, LEASE.owner], undefined]);
  });

  it('leaves a task leased by another worker to it until its lease lapses, then lets the next worker take it', async () => {
    const task = await tasks.insert(newTask('leased'));
    const first = await tasks.claim(task.id, LEASE);
    expect(first).toMatchObject({ status: 'started', attempts: 1, leaseOwner: LEASE.owner });
    expect(first!.leaseExpiresAt!.getTime() - first!.startedAt!.getTime()).toBe(LEASE.ms);
    expect(await tasks.claim(task.id, OTHER)).toBeUndefined();
    // Renewed by another than its owner: nothing changes.
    await tasks.renewLeases(OTHER.owner, [task.id], -1000);
    expect(await tasks.claim(task.id, OTHER)).toBeUndefined();
    // The owner's lease, renewed into the past, has lapsed: what a worker that died leaves.
    await tasks.renewLeases(LEASE.owner, [task.id], -1000);
    expect(await tasks.claim(task.id, OTHER)).toMatchObject({ status: 'started', attempts: 2, leaseOwner: OTHER.owner });
  });

  it('never lets a terminal task be claimed again, whatever its lease', async () => {
    const task = await tasks.insert(newTask('done'));
    await tasks.claim(task.id, { ...LEASE, ms: -1000 });
    await tasks.finish(task.id, success('done'));
    expect(await tasks.claim(task.id, OTHER)).toBeUndefined();
    expect(await tasks.claimUnstored({ ...newTask('done'), id: task.id }, 2, OTHER)).toBeUndefined();
  });

  it('takes a stored synchronous run under a lease, which another worker waits for', async () => {
    const task = { ...newTask('sync'), id: randomUUID(), async: false };
    expect(await tasks.claimUnstored(task, 1, LEASE)).toMatchObject({ status: 'started', attempts: 1, leaseOwner: LEASE.owner });
    expect(await tasks.claimUnstored(task, 1, OTHER)).toBeUndefined();
    await tasks.renewLeases(LEASE.owner, [task.id], -1000);
    expect(await tasks.claimUnstored(task, 2, OTHER)).toMatchObject({ status: 'started', attempts: 2, leaseOwner: OTHER.owner });
  });

  it('gives up the lease of a task put back to pending, which any worker then takes', async () => {
    const [retried, unclaimed] = await Promise.all(['retried', 'unclaimed'].map((text) => tasks.insert(newTask(text))));
    await Promise.all([tasks.claim(retried!.id, LEASE), tasks.claim(unclaimed!.id, LEASE)]);
    await tasks.requeue(retried!.id);
    await tasks.unclaim(unclaimed!.id);
    expect(await tasks.find(retried!.id)).toMatchObject({ status: 'pending', leaseOwner: null, leaseExpiresAt: null });
    expect(await tasks.claim(retried!.id, OTHER)).toMatchObject({ attempts: 2, leaseOwner: OTHER.owner });
    expect(await tasks.claim(unclaimed!.id, OTHER)).toMatchObject({ attempts: 1, leaseOwner: OTHER.owner });
  });

  it('records the endings of one turn, each with its own status, result, error and times', async () => {
    const made = await Promise.all(['ok', 'bad', 'slow', 'odd'].map((text) => tasks.insert(newTask(text))));
    await Promise.all(made.map((task) => tasks.claim(task.id, LEASE)));
    // Text a JSON array literal must escape (quotes, backslashes, braces, commas) and U+0000.
    const odd = { text: 'a "quoted", {braced} \\ back\u0000slash', list: [1, null, 'x'] };
    const endings: TaskEnding[] = [
      success({ echoed: 'ok' }),
      { status: 'failure', error: { type: 'TypeError', message: 'no good', kind: 'command' }, durationMs: 3, retentionMs: RETENTION_MS },
      { status: 'timeout', error: { type: 'TimeoutError', message: 'took too long', kind: 'timeout' }, durationMs: 5000, retentionMs: RETENTION_MS },
      success(odd),
    ];
    const before = Date.now();
    const ended = await Promise.all(made.map((task, i) => tasks.finish(task.id, endings[i]!)));
    expect(ended.map((row) => [row?.id, row?.status, row?.result, row?.error, row?.durationMs])).toEqual([
      [made[0]!.id, 'success', { echoed: 'ok' }, null, 13],
      [made[1]!.id, 'failure', null, endings[1]!.error, 3],
      [made[2]!.id, 'timeout', null, endings[2]!.error, 5000],
      [made[3]!.id, 'success', odd, null, 13],
    ]);
    for (const row of ended) {
      expect(row!.completedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row!.resultExpiresAt!.getTime() - row!.completedAt!.getTime()).toBe(RETENTION_MS);
    }
    expect((await tasks.find(made[3]!.id))?.result).toEqual(odd);
  });

  it("keeps a run's log lines with its ending, none as null, and drops them with the result at retention", async () => {
    const [logged, silent] = await Promise.all(['logged', 'silent'].map((text) => tasks.insert(newTask(text))));
    await Promise.all([tasks.claim(logged!.id, LEASE), tasks.claim(silent!.id, LEASE)]);
    const logs = [{ at: new Date().toISOString(), level: 'info', message: 'a "quoted", {braced} \\ line' }];
    const [withLogs, without] = await Promise.all([tasks.finish(logged!.id, { ...success(1), logs, retentionMs: -1000 }), tasks.finish(silent!.id, { ...success(2), logs: [] })]);
    expect([withLogs?.logs, without?.logs]).toEqual([logs, null]);
    expect((await tasks.find(logged!.id))?.logs).toEqual(logs);
    await tasks.purgeExpired();
    expect((await tasks.find(logged!.id))?.logs).toBeNull();
  });

  it('keeps a task revoked while it ran revoked, and answers undefined for its ending', async () => {
    const [kept, revoked] = await Promise.all(['kept', 'revoked'].map((text) => tasks.insert(newTask(text))));
    await Promise.all([tasks.claim(kept!.id, LEASE), tasks.claim(revoked!.id, LEASE)]);
    await tasks.revoke(revoked!.id, RETENTION_MS);
    const ended = await Promise.all([tasks.finish(kept!.id, success(1)), tasks.finish(revoked!.id, success(2))]);
    expect(ended.map((row) => row?.status)).toEqual(['success', undefined]);
    expect((await tasks.find(revoked!.id))?.status).toBe('revoked');
  });

  it('records only the first of two endings of one task asked for in one turn', async () => {
    const task = await tasks.insert(newTask('ends twice'));
    await tasks.claim(task.id, LEASE);
    const ended = await Promise.all([tasks.finish(task.id, success('first')), tasks.finish(task.id, success('second'))]);
    expect(ended.map((row) => row?.result)).toEqual(['first', undefined]);
  });
});
