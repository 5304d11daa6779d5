/**
 * A process that commits a change with its event through the outbox and is killed (SIGKILL)
 * at the point `OUTBOX_CRASH` names: `before-publish` (the event is committed, not yet
 * published) or `after-publish` (published, not yet marked sent). Run by `event-outbox.test.ts`.
 *
 * Environment: DATABASE_URL or OUTBOX_DATA_DIR (PGlite), AMQP_URL and SVC_BUS_PREFIX (or the
 * in-process bus), OUTBOX_SCHEMA, OUTBOX_TENANT.
 */
import { sql } from 'drizzle-orm';
import { pgSchema } from 'drizzle-orm/pg-core';
import { createLogger } from '@svc/core';
import { createDatabase, outboxTable } from '@svc/db';
import { createAmqpBus } from '../amqp-bus.js';
import { createMemoryBus } from '../memory-bus.js';
import { EventOutbox } from '../event-outbox.js';
import { typedBus, type Bus } from '../typed-bus.js';

const { DATABASE_URL, OUTBOX_DATA_DIR, AMQP_URL, SVC_BUS_PREFIX, OUTBOX_SCHEMA, OUTBOX_TENANT, OUTBOX_CRASH } = process.env;
const log = createLogger({ service: 'outbox-crash-writer', silent: true });
const die = () => process.kill(process.pid, 'SIGKILL');

const database = await createDatabase({ url: DATABASE_URL, dataDir: OUTBOX_DATA_DIR });
const raw = AMQP_URL ? await createAmqpBus({ url: AMQP_URL, prefix: SVC_BUS_PREFIX, logger: log }) : createMemoryBus({ logger: log });
const bus = typedBus(raw);
const dying: Bus = {
  ...bus,
  async publish(event, payload, options) {
    if (OUTBOX_CRASH === 'before-publish') die();
    await bus.publish(event, payload, options);
    die();
  },
};
// A short lease: the relay of the test takes the row soon after this process is gone.
const events = new EventOutbox({ db: database.db, table: outboxTable(pgSchema(OUTBOX_SCHEMA!)), bus: dying, log, leaseMs: 300 });
await events.transaction(async (tx, out) => {
  await tx.execute(sql`insert into ${sql.identifier(OUTBOX_SCHEMA!)}.changes (tenant_id) values (${OUTBOX_TENANT})`);
  out.publish('storage.changed', { tenant_id: OUTBOX_TENANT!, storage_bytes: 10, storage_keys: 1, version: 1 });
});
// Not reached: the process dies inside the publish above.
process.exit(3);
