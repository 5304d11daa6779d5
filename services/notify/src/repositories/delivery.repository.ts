import { and, asc, desc, eq, inArray, lt, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '@svc/db';
import { deliveries, deliveryAttempts, webhooks, type DeliveryAttemptRow, type DeliveryRow } from '../db/schema.js';

export interface NewDelivery {
  webhookId: string;
  tenantId: string;
  eventId: string;
  eventType: string;
  body: string;
}

export interface AttemptOutcome {
  /** The try this was (the delivery's `attempts` once leased). */
  attempt: number;
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
}

const msFromNow = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

export class DeliveryRepository {
  constructor(private readonly db: Db) {}

  async enqueue(rows: NewDelivery[]): Promise<DeliveryRow[]> {
    if (rows.length === 0) return [];
    return this.db.insert(deliveries).values(rows).returning();
  }

  /** The endpoint's deliveries, newest first, `before` one of them. */
  async page(webhookId: string, limit: number, before?: DeliveryRow): Promise<DeliveryRow[]> {
    const where = before ? and(eq(deliveries.webhookId, webhookId), lt(deliveries.seq, before.seq)) : eq(deliveries.webhookId, webhookId);
    return this.db.select().from(deliveries).where(where).orderBy(desc(deliveries.seq)).limit(limit);
  }

  async find(webhookId: string, id: string): Promise<DeliveryRow | undefined> {
    const [row] = await this.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.webhookId, webhookId), eq(deliveries.id, id)));
    return row;
  }

  /** Every try of these deliveries, in order. */
  async attemptsOf(ids: string[]): Promise<DeliveryAttemptRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, ids)).orderBy(asc(deliveryAttempts.attempt));
  }

  /**
   * Takes the deliveries due now that head their endpoint's queue (the oldest pending one of an
   * active endpoint; the next waits for it, so each endpoint hears its events in order): each
   * counts a try and is nobody else's for `leaseMs`, so another dispatcher (another replica)
   * skips it, and a dispatcher that dies mid-send leaves it to be tried again after the lease.
   */
  async leaseDue(batchSize: number, leaseMs: number): Promise<DeliveryRow[]> {
    // Aliased: Postgres wants `for update of` an unqualified name.
    const head = alias(deliveries, 'head');
    const earlier = alias(deliveries, 'earlier');
    const aheadOfIt = this.db
      .select({ id: earlier.id })
      .from(earlier)
      .where(and(eq(earlier.webhookId, head.webhookId), eq(earlier.status, 'pending'), lt(earlier.seq, head.seq)));
    const due = this.db
      .select({ id: head.id })
      .from(head)
      .innerJoin(webhooks, eq(webhooks.id, head.webhookId))
      .where(and(eq(head.status, 'pending'), eq(webhooks.status, 'active'), lte(head.nextAttemptAt, sql`now()`), notExists(aheadOfIt)))
      .orderBy(head.seq)
      .limit(batchSize)
      .for('update', { of: head, skipLocked: true });
    const rows = await this.db
      .update(deliveries)
      .set({ attempts: sql`${deliveries.attempts} + 1`, nextAttemptAt: msFromNow(leaseMs) })
      .where(inArray(deliveries.id, due))
      .returning();
    return rows.sort((a, b) => a.seq - b.seq);
  }

  /** Records a try; `retryInMs` undefined with a failure gives the delivery up. */
  async record(id: string, outcome: AttemptOutcome, result: { succeeded: true } | { succeeded: false; retryInMs?: number }): Promise<void> {
    await this.db.insert(deliveryAttempts).values({ deliveryId: id, ...outcome });
    const common = { responseCode: outcome.responseCode, latencyMs: outcome.latencyMs, lastError: outcome.error };
    if (result.succeeded) {
      await this.db.update(deliveries).set({ ...common, status: 'succeeded', deliveredAt: sql`now()`, nextAttemptAt: null }).where(eq(deliveries.id, id));
      return;
    }
    const next = result.retryInMs === undefined ? { status: 'failed' as const, nextAttemptAt: null } : { nextAttemptAt: msFromNow(result.retryInMs) };
    await this.db.update(deliveries).set({ ...common, ...next }).where(eq(deliveries.id, id));
  }

  /** Gives up every pending delivery of a disabled endpoint, saying why. */
  async failPendingOf(webhookId: string, reason: string): Promise<void> {
    await this.db
      .update(deliveries)
      .set({ status: 'failed', nextAttemptAt: null, lastError: reason })
      .where(and(eq(deliveries.webhookId, webhookId), eq(deliveries.status, 'pending')));
  }
}
