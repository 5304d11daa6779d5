import type { Db } from './database.js';

/**
 * `make`'s value for a database, made on the first call for it and kept as long as the database
 * is: prepared statements and their batchers, which a repository made for each request would
 * otherwise build again every time (drizzle builds a query's SQL anew on each call).
 *
 * @example
 *   export const entryReadsFor = perDatabase((db) => ({ find: statementBatcher(…) }));
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
