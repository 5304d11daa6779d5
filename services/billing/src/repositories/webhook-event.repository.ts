import type { Db } from '@svc/db';
import { webhookEvents } from '../db/schema.js';

export type WebhookEndpoint = (typeof webhookEvents.$inferSelect)['endpoint'];

export class WebhookEventRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a processor event; false when it was recorded before. The primary key decides:
   * of concurrent copies, one inserts and the others wait for it and then find the key taken.
   */
  async record(endpoint: WebhookEndpoint, event: { id: string; type: string }, payload: unknown): Promise<boolean> {
    const rows = await this.db.insert(webhookEvents).values({ endpoint, eventId: event.id, type: event.type, payload }).onConflictDoNothing().returning({ eventId: webhookEvents.eventId });
    return rows.length === 1;
  }
}
