import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { backoffDelayMs, Poller, type Logger } from '@svc/core';
import type { Db } from './database.js';
import type { InboxTable, OutboxRow, OutboxTable } from './outbox-tables.js';
import { statementBatcher } from './statement-batcher.js';
import { unnestRows } from './unnest-rows.js';

/** Something to send, as a transaction writes it. */
export interface OutboxEntry {
  kind: string;
  name: string;
  payload: unknown;
  /** The message's id on the wire; a new uuid when absent. Give a stable one to make a repeat recognisable. */
  id?: string;
  correlationId?: string;
}

/** How the rows of one kind leave. */
export interface OutboxDelivery {
  /** Sends one row; resolves once it is out for sure (a broker's confirm, an SMTP server's 250). */
  deliver(row: OutboxRow): Promise<void>;
  /** Tries before a row is given up and left unsent with its last error. Default: never given up. */
  maxAttempts?: number;
  /** The pause after the `attempts`-th failed try. Default 1 s doubling, at most 1 min. */
  retryDelayMs?(attempts: number): number;
  /**
   * The writing process sends its rows itself as soon as they are committed: `await` (the
   * transaction resolves once they are out or have failed; events), `background` (e-mails, whose
   * server may be slow), or `never` (only relays send them). Default `await`.
   */
  afterCommit?: 'await' | 'background' | 'never';
}

export interface OutboxOptions {
  db: Db;
  table: OutboxTable;
  /** By kind; rows of a kind without one stay in the table (identity's e-mails without SMTP). */
  deliveries: Record<string, OutboxDelivery>;
  log: Logger;
  /** How often the relay looks for rows due while it finds some (default 5 s). */
  intervalMs?: number;
  /**
   * The longest pause of a relay that finds nothing: its passes back off from `intervalMs` to
   * this (default six intervals, 30 s at the default: the lease, which the rows of a writer that
   * died wait out anyway). Rows this process fails to send wake its relay when they are due.
   */
  idleIntervalMs?: number;
  /**
   * A row taken by a relay, or just committed by a process that sends it itself, is nobody
   * else's for this long (default 30 s); a row whose sender died is sent by a relay after it.
   */
  leaseMs?: number;
  /** Rows a relay takes at once (default 50). */
  batchSize?: number;
  /** How long sent rows (and `inbox` rows) are kept (default 7 days). */
  retentionMs?: number;
  /** The service's inbox, purged with the same retention. */
  inbox?: InboxTable;
}

const DEFAULT_RETRY = (attempts: number) => backoffDelayMs({ baseMs: 1000, capMs: 60_000 }, attempts);
const PURGE_EVERY_MS = 3_600_000;
const msFromNow = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

/**
 * The transactional outbox: what a change must send is written in the change's own
 * transaction, so that it is sent if and only if the change is committed, even when the process
 * dies in between or the broker is away. The writer sends its rows right after the commit and
 * marks them sent; a relay (`start()`, in every replica) sends whatever is due and unsent: rows
 * whose writer died before marking them (once their lease has run out) and rows whose sending
 * failed (after a backoff). Each row is taken by one relay at a time (`FOR UPDATE SKIP LOCKED`).
 *
 * Delivery is at least once: a process that dies after sending a row but before marking it sent
 * has it sent again by a relay, under the same id. Consumers that must not act twice dedupe on
 * that id (`inboxTable`, `firstDelivery`).
 *
 * @example
 *   const outbox = new Outbox({ db, table: schema.outbox, deliveries: { event: eventDelivery(bus) }, log });
 *   await outbox.transaction(async (tx, add) => {
 *     await new PackRepository(tx).activate(packId, versionId);
 *     add({ kind: 'event', name: 'pack.installed', payload });
 *   });
 *   outbox.start(); // in the service's start(); `await outbox.stop()` in its stop()
 */
export class Outbox {
  private readonly intervalMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly retentionMs: number;
  private readonly markSent: (id: string) => Promise<void>;
  private readonly relay: Poller;
  private pass: Promise<number> | undefined;
  private lastPurge = 0;
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly options: OutboxOptions) {
    this.intervalMs = options.intervalMs ?? 5000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.batchSize = options.batchSize ?? 50;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 3_600_000;
    const { db, table } = options;
    this.relay = new Poller({
      look: async () => ((await this.sendDue()) > 0 ? this.intervalMs : undefined),
      busyMs: this.intervalMs,
      idleMs: options.idleIntervalMs ?? 6 * this.intervalMs,
      onError: (err) => this.options.log.error('outbox not read', { error: err.message }),
    });
    // Rows sent in one turn (concurrent requests) are marked by one statement.
    this.markSent = statementBatcher(
      async (ids: string[]) => {
        await db.update(table).set({ sentAt: sql`now()`, lastError: null }).where(inArray(table.id, ids));
        return ids.map(() => undefined);
      },
      { rowOf: (id) => id },
    );
  }

  /**
   * Runs `work` in one transaction; what it `add`s is written in that transaction and, once
   * committed, sent (see `OutboxDelivery.afterCommit`). Nothing is written when `work` throws.
   * Failures to send are logged, never thrown: the rows are committed and a relay retries them.
   */
  async transaction<T>(work: (tx: Db, add: (entry: OutboxEntry) => void) => Promise<T>): Promise<T> {
    let written: OutboxRow[] = [];
    const result = await this.options.db.transaction(async (tx) => {
      const entries: OutboxEntry[] = [];
      const value = await work(tx, (entry) => entries.push(entry));
      written = await this.write(tx, entries);
      return value;
    });
    // Rows their writer does not send are the relay's from now.
    if (written.some((row) => !this.sentByWriter(row.kind))) this.relay.wake();
    await this.sendCommitted(written);
    return result;
  }

  /**
   * Sends `entries` now, outside any transaction (their cause is safe elsewhere: a job that is
   * acknowledged only after this resolves). What cannot be sent is written for a relay; only
   * when that write fails too does this reject.
   */
  async send(entries: OutboxEntry[]): Promise<void> {
    // Started together, in order (a bus publishes them in that order and awaits the confirms at once).
    const outcomes = await Promise.all(
      entries.map(async (entry) => {
        const row = rowOf(entry);
        try {
          const delivery = this.options.deliveries[entry.kind];
          if (!delivery) throw new Error(`no delivery for ${entry.kind}`);
          await delivery.deliver(row);
          return undefined;
        } catch (err) {
          this.options.log.warn('outbox entry not sent; kept for the relay', { kind: row.kind, name: row.name, id: row.id, error: (err as Error).message });
          return { ...entry, id: row.id };
        }
      }),
    );
    const unsent = outcomes.filter((entry) => entry !== undefined);
    if (unsent.length === 0) return;
    await this.write(this.options.db, unsent, 0);
    this.relay.wake(this.intervalMs);
  }

  /**
   * Writes `entries` (in `db`, a transaction or the database) for the relay alone, whose first
   * pass comes one interval after `start()`: for what a process announces as it starts, before
   * the consumers of the same process (the standalone's in-process bus) have subscribed. An
   * entry whose id the table still holds (announced before, sent or not) is not written again.
   */
  async enqueue(db: Db, entries: OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await db
      .insert(this.options.table)
      .values(
        entries.map((entry) => {
          const { id, kind, name, payload, correlationId } = rowOf(entry);
          return { id, kind, name, payload, correlationId, nextAttemptAt: sql`now()` };
        }),
      )
      .onConflictDoNothing();
    this.relay.wake(this.intervalMs);
  }

  /**
   * Starts the relay: the first pass after one interval (so that consumers of this process
   * subscribe first), then one every `intervalMs` while passes find rows, backing off to
   * `idleIntervalMs` while they find none.
   */
  start(): void {
    this.relay.start();
  }

  /** Sends every row due now; a pass already under way is joined, not doubled. Resolves to the rows it took. */
  sendDue(): Promise<number> {
    this.pass ??= this.relayPass().finally(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  /** Stops the relay and waits for sends and marks under way (a row left unsent is a relay's later). */
  async stop(): Promise<void> {
    await this.relay.stop();
    await this.pass?.catch(() => undefined);
    await Promise.allSettled([...this.sending]);
  }

  private async write(db: Db, entries: OutboxEntry[], dueInMs?: number): Promise<OutboxRow[]> {
    if (entries.length === 0) return [];
    const values = entries.map((entry) => {
      const due = dueInMs ?? (this.sentByWriter(entry.kind) ? this.leaseMs : 0);
      const { id, kind, name, payload, correlationId } = rowOf(entry);
      return { id, kind, name, payload, correlationId, nextAttemptAt: due === 0 ? sql`now()` : msFromNow(due) };
    });
    return db.insert(this.options.table).values(values).returning();
  }

  private sentByWriter(kind: string): boolean {
    const delivery = this.options.deliveries[kind];
    return delivery !== undefined && delivery.afterCommit !== 'never';
  }

  private async sendCommitted(rows: OutboxRow[]): Promise<void> {
    const now = rows.filter((row) => (this.options.deliveries[row.kind]?.afterCommit ?? 'await') === 'await' && this.sentByWriter(row.kind));
    const later = rows.filter((row) => this.options.deliveries[row.kind]?.afterCommit === 'background');
    if (later.length > 0) {
      const sending = this.deliverAll(later);
      this.sending.add(sending);
      void sending.finally(() => this.sending.delete(sending));
    }
    await this.deliverAll(now);
  }

  /** Sends rows one after the other (their order is the order of their causes); never throws. */
  private async deliverAll(rows: OutboxRow[]): Promise<void> {
    for (const row of rows) await this.deliver(row).catch((err: Error) => this.options.log.error('outbox row not recorded', { id: row.id, error: err.message }));
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const delivery = this.options.deliveries[row.kind]!;
    try {
      await delivery.deliver(row);
    } catch (err) {
      const error = (err as Error).message;
      const attempts = row.attempts === 0 ? 1 : row.attempts;
      const givenUp = attempts >= (delivery.maxAttempts ?? Infinity);
      const retryInMs = givenUp ? undefined : (delivery.retryDelayMs ?? DEFAULT_RETRY)(attempts);
      await this.markFailed(row.id, attempts, error, retryInMs);
      if (retryInMs !== undefined) this.relay.wake(retryInMs);
      this.options.log.warn('outbox row not sent', { id: row.id, kind: row.kind, name: row.name, attempts, error, given_up: givenUp });
      return;
    }
    // Not waited for: the row is out, and were the mark lost it would only be sent again.
    const marking = this.markSent(row.id).catch((err: Error) => {
      this.options.log.warn('outbox row sent but not marked; it will be sent again', { id: row.id, error: err.message });
    });
    this.sending.add(marking);
    void marking.finally(() => this.sending.delete(marking));
  }

  private async relayPass(): Promise<number> {
    let taken = 0;
    for (;;) {
      const batch = await this.leaseDue();
      taken += batch.length;
      for (const row of batch) await this.deliver(row);
      if (batch.length < this.batchSize) break;
    }
    if (Date.now() - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      await this.purge();
    }
    return taken;
  }

  /**
   * Takes up to `batchSize` unsent rows that are due, oldest first, of the kinds this process
   * delivers: each counts a try and is nobody else's for `leaseMs`. Rows another relay is taking
   * at the same moment are skipped, not waited for.
   */
  private async leaseDue(): Promise<OutboxRow[]> {
    const { db, table } = this.options;
    const kinds = Object.keys(this.options.deliveries);
    if (kinds.length === 0) return [];
    const due = db
      .select({ id: table.id })
      .from(table)
      .where(and(isNull(table.sentAt), lte(table.nextAttemptAt, sql`now()`), inArray(table.kind, kinds)))
      .orderBy(table.seq)
      .limit(this.batchSize)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(table)
      .set({ attempts: sql`${table.attempts} + 1`, nextAttemptAt: msFromNow(this.leaseMs) })
      .where(inArray(table.id, due))
      .returning();
    return rows.sort((a, b) => a.seq - b.seq);
  }

  /** Records a failed try; the row is due again after `retryInMs`, or never when it is absent. */
  private async markFailed(id: string, attempts: number, error: string, retryInMs: number | undefined): Promise<void> {
    const { db, table } = this.options;
    await db
      .update(table)
      .set({ attempts, lastError: error, nextAttemptAt: retryInMs === undefined ? null : msFromNow(retryInMs) })
      .where(eq(table.id, id));
  }

  private async purge(): Promise<void> {
    const { db, table, inbox } = this.options;
    const before = sql`now() - ${this.retentionMs} * interval '1 millisecond'`;
    await db.delete(table).where(lt(table.sentAt, before));
    if (inbox) await db.delete(inbox).where(lt(inbox.receivedAt, before));
  }
}

/** The row an entry becomes. */
function rowOf(entry: OutboxEntry): OutboxRow {
  return {
    id: entry.id ?? randomUUID(),
    kind: entry.kind,
    name: entry.name,
    payload: entry.payload ?? null,
    correlationId: entry.correlationId ?? null,
    seq: 0,
    createdAt: new Date(),
    sentAt: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
  };
}

/**
 * Records that this service handles event `eventId`, in the transaction `tx` of that handling:
 * false when it already has (a second delivery of the same event), and the caller then does
 * nothing. The record and the work commit or roll back together.
 *
 * @example
 *   await db.transaction(async (tx) => {
 *     if (!(await firstDelivery(tx, inbox, message.messageId, message.name))) return;
 *     await new UsageRepository(tx).add(message.payload);
 *   });
 */
export async function firstDelivery(tx: Db, inbox: InboxTable, eventId: string, name: string): Promise<boolean> {
  return (await firstDeliveries(tx, inbox, [{ eventId, name }])).has(eventId);
}

/** `firstDelivery` for a batch of events in one statement: the ids of those not handled before. */
export async function firstDeliveries(tx: Db, inbox: InboxTable, events: { eventId: string; name: string }[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const inserted = await tx
    .insert(inbox)
    .select(unnestRows(inbox, ['eventId', 'name'], (key) => sql.param(events.map((event) => event[key]))))
    .onConflictDoNothing()
    .returning({ eventId: inbox.eventId });
  return new Set(inserted.map((row) => row.eventId));
}
