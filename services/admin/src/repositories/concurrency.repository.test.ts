import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { ADMIN_MIGRATIONS, ADMIN_SCHEMA } from '../app.js';
import { ConcurrencyRepository, type RunChange } from './concurrency.repository.js';

const PERIOD = '2026-03';
const at = new Date('2026-03-15T12:00:00Z');

describe.each(testDatabaseKinds())('jobs running at once on $name', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: ADMIN_MIGRATIONS, schema: ADMIN_SCHEMA });
  });
  afterAll(() => db?.dispose());

  it('ends a run whose end is handled while its start is still uncommitted', async () => {
    const tenantId = randomUUID();
    const taskId = randomUUID();
    let commitStart!: () => void;
    const startHeld = new Promise<void>((resolve) => (commitStart = resolve));
    let startWritten!: () => void;
    const written = new Promise<void>((resolve) => (startWritten = resolve));
    const start = db.database.db.transaction(async (tx) => {
      await new ConcurrencyRepository(tx).apply(PERIOD, at, [{ change: 'started', tenantId, taskId }]);
      startWritten();
      await startHeld;
    });
    await written;
    const end = db.database.db.transaction((tx) => new ConcurrencyRepository(tx).apply(PERIOD, at, [{ change: 'ended', tenantId, taskId }]));
    // The end is under way (on Postgres, waiting on the start) before the start commits.
    await new Promise((resolve) => setTimeout(resolve, 200));
    commitStart();
    await Promise.all([start, end]);
    const repository = new ConcurrencyRepository(db.database.db);
    expect(await repository.current(tenantId)).toBe(0);
    expect(await repository.peak(tenantId, PERIOD)).toBe(1);
  });

  it('counts a batch in order: the peak of the jobs running together, an end before its start, a run started and ended in one batch', async () => {
    const tenantId = randomUUID();
    const [a, b, c, late] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const repository = new ConcurrencyRepository(db.database.db);
    const apply = (changes: [RunChange['change'], string][]) => repository.apply(PERIOD, at, changes.map(([change, taskId]) => ({ change, tenantId, taskId })));
    await apply([
      ['started', a],
      ['started', b],
      ['ended', a],
      ['ended', late],
      ['started', c],
      ['started', b],
    ]);
    expect(await repository.current(tenantId)).toBe(2);
    expect(await repository.peak(tenantId, PERIOD)).toBe(2);
    await apply([
      ['started', late],
      ['ended', b],
    ]);
    expect(await repository.current(tenantId)).toBe(1);
    await apply([['ended', c]]);
    expect(await repository.current(tenantId)).toBe(0);
    expect(await repository.peak(tenantId, PERIOD)).toBe(2);
    expect(await repository.current(randomUUID())).toBe(0);
  });
});
