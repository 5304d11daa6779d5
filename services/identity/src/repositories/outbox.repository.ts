import type { Db } from '@svc/db';
import { outbox } from '../db/schema.js';

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async queueEmail(recipient: string, template: string, payload: Record<string, unknown>): Promise<void> {
    await this.db.insert(outbox).values({ kind: 'email', recipient, template, payload });
  }
}
