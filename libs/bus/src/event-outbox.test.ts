import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { pgSchema, uuid } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@svc/core';
import { createDatabase, createScratchDatabase, type Database } from '@svc/db';
import { createOutboxTables } from '@svc/db/testing';
import { EventOutbox } from './event-outbox.js';
import { handleOnce } from './handle-once.js';
import { ephemeralQueueName } from './names.js';
import { testBusKinds, waitFor } from './testing/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const writer = fileURLToPath(new URL('./testing/outbox-crash-writer.ts', import.meta.url));
const log = createLogger({ service: 'event-outbox-test', silent: true });
const SCHEMA = 'outbox_crash';

/** Runs the writer, which commits a change with its event and is killed at `crash`. */
function runWriter(env: Record<string, string | undefined>, crash: 'before-publish' | 'after-publish'): Promise<NodeJS.Signals | null> {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const child = spawn(process.execPath, ['--import', 'tsx', writer], { cwd: root, env: { PATH: process.env.PATH, ...defined, OUTBOX_SCHEMA: SCHEMA, OUTBOX_CRASH: crash }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal ? resolve(signal) : reject(new Error(`the writer exited with ${code}:\n${errors}`))));
  });
}

/** Where the test's data lives: the real Postgres, or else an embedded PGlite folder (as the standalone keeps it). */
interface Place {
  env: Record<string, string | undefined>;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

async function newPlace(): Promise<Place> {
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'outbox');
    return { env: { DATABASE_URL: scratch.url }, open: () => createDatabase({ url: scratch.url }), dispose: () => scratch.drop() };
  }
  const dir = await mkdtemp(join(tmpdir(), 'svc-outbox-'));
  return { env: { OUTBOX_DATA_DIR: dir }, open: () => createDatabase({ dataDir: dir }), dispose: () => rm(dir, { recursive: true, force: true }) };
}

// RabbitMQ with the real database only: the consumer runs while the writer writes, which an embedded database in a folder does not allow.
const kinds = testBusKinds().filter((kind) => kind.name === 'in-process' || process.env.DATABASE_URL);
const changes = pgSchema(SCHEMA).table('changes', { tenantId: uuid('tenant_id').notNull() });

describe.each(kinds)('an event written through the outbox, its writer killed (the $name bus)', (kind) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it.each(['before-publish', 'after-publish'] as const)('arrives once when the writer is killed %s', async (crash) => {
    const tenant = randomUUID();
    let opened = await kind.open();
    cleanup.push(() => opened.dispose());
    const place = await newPlace();
    cleanup.push(() => place.dispose());
    let database = await place.open();
    const { outbox, inbox } = await createOutboxTables(database.db, SCHEMA);
    await database.db.execute(sql`create table ${sql.identifier(SCHEMA)}.changes (tenant_id uuid not null)`);

    const wire: string[] = [];
    const handled: string[] = [];
    const consume = async () => {
      await opened.bus.subscribe(
        ephemeralQueueName('test.outbox-usage'),
        ['storage.changed'],
        handleOnce(database.db, inbox, async (message) => {
          if (message.payload.tenant_id === tenant) handled.push(message.messageId);
        }),
        { ephemeral: true },
      );
      await opened.raw.subscribe('test.outbox-wire', ['storage.changed'], async (message) => {
        if ((message.payload as { tenant_id: string }).tenant_id === tenant) wire.push(message.messageId);
      });
    };

    if (opened.bus.kind === 'amqp') {
      // The consumers run all along, in this process; the writer publishes to the same broker.
      await consume();
      expect(await runWriter({ ...place.env, AMQP_URL: process.env.AMQP_URL, SVC_BUS_PREFIX: opened.prefix, OUTBOX_TENANT: tenant }, crash)).toBe('SIGKILL');
    } else {
      // One process and its in-process bus, killed; then the process that starts again on its data.
      await database.close();
      expect(await runWriter({ ...place.env, OUTBOX_TENANT: tenant }, crash)).toBe('SIGKILL');
      await opened.dispose();
      opened = await kind.open();
      database = await place.open();
      await consume();
    }
    cleanup.push(() => database.close());

    expect(await database.db.select().from(changes)).toEqual([{ tenantId: tenant }]);
    const relay = new EventOutbox({ db: database.db, table: outbox, bus: opened.bus, log });
    cleanup.push(() => relay.stop());
    // The writer's lease on its row (300 ms) runs out; then the relay takes the row.
    await waitFor(async () => {
      await relay.sendDue();
      await relay.stop();
      return (await database.db.select().from(outbox))[0]?.sentAt != null;
    }, 'the row sent and marked');
    await waitFor(() => handled.length > 0, 'the event');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const [row] = await database.db.select().from(outbox);
    expect(handled).toEqual([row!.id]);
    // On RabbitMQ a writer killed after publishing has already put the event out once: the
    // relay sends it again under the same id, and the consumer's inbox takes it once.
    expect(wire).toEqual(opened.bus.kind === 'amqp' && crash === 'after-publish' ? [row!.id, row!.id] : [row!.id]);
  });
});
