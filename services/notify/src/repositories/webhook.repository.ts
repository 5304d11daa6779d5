import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { webhooks, type WebhookRow } from '../db/schema.js';

export interface NewWebhook {
  tenantId: string;
  url: string;
  events: string[];
  description: string;
  secret: string;
  createdBy: string;
  ownerEmail: string;
}

export class WebhookRepository {
  constructor(private readonly db: Db) {}

  async create(input: NewWebhook): Promise<WebhookRow> {
    const [row] = await this.db.insert(webhooks).values(input).returning();
    return row!;
  }

  countOf(tenantId: string): Promise<number> {
    return this.db
      .select({ n: count() })
      .from(webhooks)
      .where(eq(webhooks.tenantId, tenantId))
      .then(([row]) => row?.n ?? 0);
  }

  listOf(tenantId: string): Promise<WebhookRow[]> {
    return this.db.select().from(webhooks).where(eq(webhooks.tenantId, tenantId)).orderBy(desc(webhooks.createdAt), desc(webhooks.id));
  }

  /** The tenant's endpoint, or undefined when it has none by that id. */
  async find(tenantId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await this.db.select().from(webhooks).where(and(eq(webhooks.tenantId, tenantId), eq(webhooks.id, id)));
    return row;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const removed = await this.db.delete(webhooks).where(and(eq(webhooks.tenantId, tenantId), eq(webhooks.id, id))).returning({ id: webhooks.id });
    return removed.length === 1;
  }

  /** The tenant's active endpoints that asked for `type`. */
  /** The active webhooks of these tenants, in one statement. */
  async activeOf(tenantIds: string[]): Promise<WebhookRow[]> {
    if (tenantIds.length === 0) return [];
    return this.db
      .select()
      .from(webhooks)
      .where(and(inArray(webhooks.tenantId, tenantIds), eq(webhooks.status, 'active')));
  }

  async byId(id: string): Promise<WebhookRow | undefined> {
    const [row] = await this.db.select().from(webhooks).where(eq(webhooks.id, id));
    return row;
  }

  /** A delivery succeeded: the endpoint is failing no more. */
  async markHealthy(id: string): Promise<void> {
    await this.db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, id));
  }

  /**
   * A delivery failed: the endpoint has been failing since its first failure without a success
   * since. Returns it disabled when it has now been failing for `disableAfterMs`, and only the
   * one call that disables it gets it (the owner is told once).
   */
  async markFailing(id: string, disableAfterMs: number): Promise<WebhookRow | undefined> {
    await this.db.update(webhooks).set({ failingSince: sql`coalesce(${webhooks.failingSince}, now())` }).where(eq(webhooks.id, id));
    const [disabled] = await this.db
      .update(webhooks)
      .set({ status: 'disabled', disabledAt: sql`now()` })
      .where(and(eq(webhooks.id, id), eq(webhooks.status, 'active'), sql`${webhooks.failingSince} <= now() - ${disableAfterMs} * interval '1 millisecond'`))
      .returning();
    return disabled;
  }
}
