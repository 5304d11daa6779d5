import { desc } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { telemetry } from '../db/schema.js';

export type TelemetryRow = typeof telemetry.$inferSelect;
export type NewTelemetry = typeof telemetry.$inferInsert;

export class TelemetryRepository {
  constructor(private readonly db: Db) {}

  async insert(record: NewTelemetry): Promise<void> {
    await this.db.insert(telemetry).values(record);
  }

  async latest(limit: number): Promise<TelemetryRow[]> {
    return this.db.select().from(telemetry).orderBy(desc(telemetry.receivedAt)).limit(limit);
  }
}
