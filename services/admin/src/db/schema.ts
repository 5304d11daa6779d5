import { boolean, index, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const admin = pgSchema('admin');

/**
 * Anonymous CLI telemetry as received: no user, tenant or address is kept with a record.
 * Metrics read models will be built from it here.
 */
export const telemetry = admin.table(
  'telemetry',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    command: text('command').notNull(),
    durationMs: integer('duration_ms').notNull(),
    success: boolean('success').notNull(),
    pythonVersion: text('python_version'),
    os: text('os').notNull(),
    cliVersion: text('cli_version').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('telemetry_received_at_idx').on(t.receivedAt)],
);
