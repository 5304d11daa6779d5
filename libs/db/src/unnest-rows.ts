import { getTableColumns, is, SQL, sql, type Column, type Param, type Placeholder } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** A column's default as SQL (cast: a select list's bare parameter or null would be text). */
function defaultOf(column: Column): SQL {
  const type = sql.raw(column.getSQLType());
  if (column.default === undefined) return sql`null::${type}`;
  return is(column.default, SQL) ? column.default : sql`${column.default}::${type}`;
}

/** A value of a column array: dates as ISO text (each driver reads them in an array), absent as null. */
export const columnValue = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

/**
 * Rows for `db.insert(table).select(…)` from one array per given column (`arrayOf(key)`: a
 * parameter, or a prepared statement's placeholder, holding that column's values, row by row),
 * every other column at its default: drizzle's insert-select takes all the table's columns, in
 * its order. A batch of rows costs one parameter per column rather than one per value, whose
 * building and binding cost more than the insert once batches hold hundreds (BENCHMARKS.md,
 * twelfth round).
 *
 * @example
 *   await tx.insert(inbox).select(unnestRows(inbox, ['eventId', 'name'], (key) => sql.param(events.map((e) => e[key])))).onConflictDoNothing();
 */
export function unnestRows<T extends PgTable, K extends keyof T['_']['columns'] & string>(table: T, keys: readonly K[], arrayOf: (key: K) => Param | Placeholder): SQL {
  const columns = getTableColumns(table) as Record<string, Column>;
  const given = new Set<string>(keys);
  const arrays = keys.map((key) => sql`${arrayOf(key)}::${sql.raw(columns[key]!.getSQLType())}[]`);
  const names = keys.map((key) => sql.identifier(columns[key]!.name));
  const selected = Object.entries(columns).map(([key, column]) => (given.has(key) ? sql`given.${sql.identifier(column.name)}` : defaultOf(column)));
  return sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as given(${sql.join(names, sql`, `)})`;
}
