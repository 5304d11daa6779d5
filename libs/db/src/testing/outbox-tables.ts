import { sql } from 'drizzle-orm';
import { pgSchema } from 'drizzle-orm/pg-core';
import type { Db } from '../database.js';
import { inboxTable, outboxTable } from '../outbox-tables.js';

/**
 * An outbox and an inbox in a schema of their own, made as a service's drizzle-kit migration
 * makes them, for tests of the outbox itself (services get theirs from their migrations).
 */
export async function createOutboxTables(db: Db, schemaName: string) {
  const schema = pgSchema(schemaName);
  const name = sql.identifier(schemaName);
  await db.execute(sql`create schema if not exists ${name}`);
  await db.execute(sql`create table ${name}.outbox (
    id uuid primary key default gen_random_uuid() not null,
    seq bigint generated always as identity,
    kind text not null,
    name text not null,
    payload json not null,
    correlation_id text,
    created_at timestamp with time zone default now() not null,
    sent_at timestamp with time zone,
    attempts integer default 0 not null,
    next_attempt_at timestamp with time zone default now(),
    last_error text
  )`);
  await db.execute(sql`create index on ${name}.outbox (next_attempt_at) where sent_at is null`);
  await db.execute(sql`create table ${name}.inbox (event_id text primary key not null, name text not null, received_at timestamp with time zone default now() not null)`);
  return { outbox: outboxTable(schema), inbox: inboxTable(schema) };
}
