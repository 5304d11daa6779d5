import { randomUUID } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@svc/core';
import { firstDeliveries, firstDelivery, Outbox, type OutboxDelivery, type OutboxOptions } from './outbox.js';
import type { InboxTable, OutboxRow, OutboxTable } from './outbox-tables.js';
import { createOutboxTables, testDatabaseKinds, type TestDatabase } from './testing/index.js';

const log = createLogger({ service: 'outbox-test', silent: true });

/** A destination that takes what it is given, or refuses while `refusing` says why. */
function destination(options: Partial<OutboxDelivery> = {}) {
  const received: OutboxRow[] = [];
  const state = { refusing: undefined as string | undefined };
  const delivery: OutboxDelivery = {
    ...options,
    async deliver(row) {
      if (state.refusing) throw new Error(state.refusing);
      received.push(row);
    },
  };
  return { delivery, received, state };
}

describe.each(testDatabaseKinds())('the outbox on $name', (kind) => {
  let db: TestDatabase;
  let outbox: OutboxTable;
  let inbox: InboxTable;
  const open: Outbox[] = [];
  const make = (deliveries: OutboxOptions['deliveries'], options: Partial<OutboxOptions> = {}) => {
    const made = new Outbox({ db: db.database.db, table: outbox, deliveries, log, ...options });
    open.push(made);
    return made;
  };
  const rows = () => db.database.db.select().from(outbox).orderBy(asc(outbox.seq));
  const dueNow = () => db.database.db.update(outbox).set({ nextAttemptAt: sql`now()` }).where(sql`${outbox.nextAttemptAt} is not null`);
  const marked = async () => {
    await Promise.all(open.map((o) => o.stop()));
  };

  beforeAll(async () => {
    db = await kind.open();
    ({ outbox, inbox } = await createOutboxTables(db.database.db, 'outbox_test'));
  });
  afterAll(async () => {
    await marked();
    await db?.dispose();
  });
  beforeEach(async () => {
    await marked();
    await db.database.db.delete(outbox);
    await db.database.db.delete(inbox);
  });

  it('writes entries in the transaction of the change and delivers them, in order, once it commits', async () => {
    const events = destination();
    const box = make({ event: events.delivery });
    const answer = await box.transaction(async (_tx, add) => {
      add({ kind: 'event', name: 'thing.made', payload: { n: 1 }, correlationId: 'c-1' });
      add({ kind: 'event', name: 'thing.changed', payload: { n: 2 } });
      expect(events.received).toEqual([]);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(events.received.map((r) => [r.name, r.payload, r.correlationId])).toEqual([
      ['thing.made', { n: 1 }, 'c-1'],
      ['thing.changed', { n: 2 }, null],
    ]);
    await marked();
    expect(await rows()).toEqual([expect.objectContaining({ sentAt: expect.any(Date), attempts: 0 }), expect.objectContaining({ sentAt: expect.any(Date) })]);
    expect((await rows()).map((r) => r.id)).toEqual(events.received.map((r) => r.id));
  });

  it('writes and delivers nothing when the change fails', async () => {
    const events = destination();
    const box = make({ event: events.delivery });
    await expect(
      box.transaction(async (_tx, add) => {
        add({ kind: 'event', name: 'thing.made', payload: {} });
        throw new Error('no change');
      }),
    ).rejects.toThrow('no change');
    expect(events.received).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('keeps what could not be delivered after the commit, and its relay delivers it after the backoff', async () => {
    const events = destination({ retryDelayMs: () => 60_000 });
    const box = make({ event: events.delivery });
    events.state.refusing = 'broker away';
    await box.transaction(async (_tx, add) => add({ kind: 'event', name: 'thing.made', payload: { n: 1 } }));
    const [failed] = await rows();
    expect(failed).toMatchObject({ sentAt: null, attempts: 1, lastError: 'broker away' });
    expect(failed!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);

    events.state.refusing = undefined;
    await box.sendDue();
    expect(events.received).toEqual([]);
    await dueNow();
    await box.sendDue();
    expect(events.received.map((r) => r.id)).toEqual([failed!.id]);
    await marked();
    expect(await rows()).toEqual([expect.objectContaining({ attempts: 2, lastError: null, sentAt: expect.any(Date) })]);
  });

  it('leaves a row its writer meant to deliver to the relays until the lease runs out (the writer died in between)', async () => {
    const events = destination();
    // A writer that commits and then never gets to deliver (as if killed at that point).
    const writer = make({ event: { deliver: () => new Promise<void>(() => {}) } }, { leaseMs: 300 });
    void writer.transaction(async (_tx, add) => add({ kind: 'event', name: 'thing.made', payload: {} }));
    while ((await rows()).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const relay = make({ event: events.delivery }, { leaseMs: 300 });
    await relay.sendDue();
    expect(events.received).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await relay.sendDue();
    expect(events.received.map((r) => r.name)).toEqual(['thing.made']);
  });

  it('an idle relay backs off, and a row its own process failed to send wakes it when the row is due', async () => {
    const events = destination({ retryDelayMs: () => 300 });
    const box = make({ event: events.delivery }, { intervalMs: 50, idleIntervalMs: 60_000 });
    box.start();
    // Passes at 50, 100, 200, 400, 800 and 1,600 ms found nothing: the next is 3.2 s away.
    await new Promise((resolve) => setTimeout(resolve, 1700));
    events.state.refusing = 'broker away';
    await box.transaction(async (_tx, add) => add({ kind: 'event', name: 'thing.made', payload: {} }));
    events.state.refusing = undefined;
    const sentBy = Date.now() + 2000;
    while (events.received.length === 0 && Date.now() < sentBy) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events.received.map((r) => r.name)).toEqual(['thing.made']);
  });

  it('a started relay still sends the rows of a writer that died, within its idle interval after their lease', async () => {
    const events = destination();
    const writer = make({ event: { deliver: () => new Promise<void>(() => {}) } }, { leaseMs: 200 });
    void writer.transaction(async (_tx, add) => add({ kind: 'event', name: 'thing.made', payload: {} }));
    const relay = make({ event: events.delivery }, { leaseMs: 200, intervalMs: 20, idleIntervalMs: 300 });
    relay.start();
    await new Promise((resolve) => setTimeout(resolve, 200 + 300 + 400));
    expect(events.received.map((r) => r.name)).toEqual(['thing.made']);
  });

  it('gives a row up after maxAttempts, keeping its last error', async () => {
    const mail = destination({ maxAttempts: 2, afterCommit: 'never' });
    const box = make({ email: mail.delivery });
    await box.transaction(async (_tx, add) => add({ kind: 'email', name: 'welcome', payload: { to: 'ada@example.test' } }));
    mail.state.refusing = 'mailbox full';
    await box.sendDue();
    await dueNow();
    await box.sendDue();
    await dueNow();
    await box.sendDue();
    expect(await rows()).toEqual([expect.objectContaining({ attempts: 2, sentAt: null, nextAttemptAt: null, lastError: 'mailbox full' })]);
  });

  it('leaves rows of a kind it has no delivery for', async () => {
    const events = destination();
    const box = make({ event: events.delivery });
    await box.transaction(async (_tx, add) => add({ kind: 'email', name: 'welcome', payload: {} }));
    await box.sendDue();
    expect(events.received).toEqual([]);
    expect(await rows()).toEqual([expect.objectContaining({ kind: 'email', sentAt: null, attempts: 0 })]);
  });

  it('delivers each row once when several relays read at the same time', async () => {
    const parked = make({});
    await parked.transaction(async (_tx, add) => {
      for (let i = 0; i < 30; i++) add({ kind: 'event', name: 'thing.made', payload: { i } });
    });
    const targets = [1, 2, 3].map(() => destination());
    const relays = targets.map((t) => make({ event: t.delivery }, { batchSize: 7 }));
    await Promise.all(relays.map((r) => r.sendDue()));
    const delivered = targets.flatMap((t) => t.received.map((r) => (r.payload as { i: number }).i));
    expect(delivered.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('delivers now what needs no transaction, and keeps for the relay what it could not deliver', async () => {
    const events = destination();
    const box = make({ event: events.delivery });
    await box.send([{ kind: 'event', name: 'run.ended', payload: { n: 1 }, id: randomUUID() }]);
    expect(events.received).toHaveLength(1);
    expect(await rows()).toEqual([]);

    events.state.refusing = 'broker away';
    const id = randomUUID();
    await box.send([{ kind: 'event', name: 'run.ended', payload: { n: 2 }, id }]);
    expect(await rows()).toEqual([expect.objectContaining({ id, sentAt: null, attempts: 0 })]);
    events.state.refusing = undefined;
    await box.sendDue();
    expect(events.received.map((r) => r.id)).toEqual([expect.any(String), id]);
  });

  it('leaves what it enqueues to the relay, and writes an id it still holds only once', async () => {
    const events = destination();
    const box = make({ event: events.delivery });
    const id = randomUUID();
    await box.enqueue(db.database.db, [{ kind: 'event', name: 'owner.announced', payload: { n: 1 }, id }]);
    expect(events.received).toEqual([]);
    await box.sendDue();
    await marked();
    expect(events.received.map((r) => r.id)).toEqual([id]);
    // Announced again (a restart): the row sent is still held, so nothing new is written or sent.
    await db.database.db.transaction((tx) => box.enqueue(tx, [{ kind: 'event', name: 'owner.announced', payload: { n: 1 }, id }]));
    await box.sendDue();
    expect(events.received).toHaveLength(1);
    expect(await rows()).toEqual([expect.objectContaining({ id, sentAt: expect.any(Date) })]);
  });

  it('purges sent rows and inbox entries past their retention', async () => {
    const events = destination();
    const box = make({ event: events.delivery }, { retentionMs: 1000, inbox });
    await box.transaction(async (_tx, add) => add({ kind: 'event', name: 'thing.made', payload: {} }));
    await firstDelivery(db.database.db, inbox, randomUUID(), 'thing.made');
    await marked();
    await db.database.db.execute(sql`update ${outbox} set sent_at = now() - interval '1 hour'`);
    await db.database.db.execute(sql`update ${inbox} set received_at = now() - interval '1 hour'`);
    await box.sendDue();
    expect(await rows()).toEqual([]);
    expect(await db.database.db.select().from(inbox)).toEqual([]);
  });

  it('tells a consumer whether it has handled an event id already, in its own transaction', async () => {
    const id = randomUUID();
    expect(await firstDelivery(db.database.db, inbox, id, 'thing.made')).toBe(true);
    expect(await firstDelivery(db.database.db, inbox, id, 'thing.made')).toBe(false);
    const rolledBack = randomUUID();
    await db.database.db
      .transaction(async (tx) => {
        expect(await firstDelivery(tx, inbox, rolledBack, 'thing.made')).toBe(true);
        throw new Error('the work failed');
      })
      .catch(() => undefined);
    expect(await firstDelivery(db.database.db, inbox, rolledBack, 'thing.made')).toBe(true);
  });

  it('tells which events of a batch are new in one statement, an id twice in the batch once', async () => {
    const [seen, fresh] = [randomUUID(), randomUUID()];
    await firstDelivery(db.database.db, inbox, seen, 'thing.made');
    const batch = [seen, fresh, fresh].map((eventId) => ({ eventId, name: 'thing.made' }));
    expect(await firstDeliveries(db.database.db, inbox, batch)).toEqual(new Set([fresh]));
    expect(await firstDeliveries(db.database.db, inbox, [])).toEqual(new Set());
  });
});
