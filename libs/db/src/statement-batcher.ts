import DataLoader from 'dataloader';
import { isConnectionFailure } from './connection-failure.js';

export interface StatementBatcherOptions<K> {
  /**
   * The row a key writes: one statement never takes a row twice. Without it keys only read,
   * and reads of one row share a statement (`run` gets the key once for each).
   */
  rowOf?(key: K): string;
  /** Most keys one statement takes (default 100). */
  maxBatchSize?: number;
  /** The bytes a key adds to a statement, and how many one may carry (default: no bound). */
  sizeOf?(key: K): number;
  maxBatchBytes?: number;
}

/**
 * The keys as statements: lists of indexes in which no row comes twice and the sizes stay within
 * the bound (a key alone may exceed it), a row's later keys always in later statements.
 */
function statementsOf<K>(keys: readonly K[], options: StatementBatcherOptions<K>): number[][] {
  const statements: { bytes: number; indexes: number[] }[] = [];
  const lastStatementOf = new Map<string, number>();
  const maxBytes = options.maxBatchBytes ?? Infinity;
  keys.forEach((key, index) => {
    const row = options.rowOf?.(key);
    const bytes = options.sizeOf?.(key) ?? 0;
    let at = row === undefined ? 0 : (lastStatementOf.get(row) ?? -1) + 1;
    while (at < statements.length && statements[at]!.bytes + bytes > maxBytes) at++;
    if (at === statements.length) statements.push({ bytes: 0, indexes: [] });
    const statement = statements[at]!;
    statement.bytes += bytes;
    statement.indexes.push(index);
    if (row !== undefined) lastStatementOf.set(row, at);
  });
  return statements.map((s) => s.indexes);
}

/**
 * Gathers the statements asked for in one turn of the event loop and hands their keys to `run`
 * together: one statement (and one commit) for many, where each would cost a round trip, a pool
 * checkout and, for a write, a WAL flush of its own. Under load, concurrent requests and jobs
 * reach the database in the same turn; a key asked for alone waits for no one.
 *
 * `run` gets keys and answers one value per key, in their order. A write whose row comes twice
 * in a turn goes in a later statement, as it would have waited for the first. When a statement
 * fails for anything but a lost connection, its keys are each run again on their own, so that
 * one bad row cannot fail the others.
 *
 * @example
 *   const claim = statementBatcher((ids: string[]) => claimMany(ids), { rowOf: (id) => id });
 *   const row = await claim(taskId);
 */
export function statementBatcher<K, V>(run: (keys: K[]) => Promise<V[]>, options: StatementBatcherOptions<K>): (key: K) => Promise<V> {
  const runAlone = (key: K): Promise<V | Error> =>
    run([key]).then(
      ([value]) => value as V,
      (err: Error) => err,
    );
  const loader = new DataLoader<K, V>(
    async (keys) => {
      const results: (V | Error)[] = new Array(keys.length);
      for (const statement of statementsOf(keys, options)) {
        try {
          const values = await run(statement.map((index) => keys[index]!));
          statement.forEach((index, n) => (results[index] = values[n] as V));
        } catch (err) {
          const apart = statement.length > 1 && !isConnectionFailure(err);
          const alone = apart ? await Promise.all(statement.map((index) => runAlone(keys[index]!))) : statement.map(() => err as Error);
          statement.forEach((index, n) => (results[index] = alone[n]!));
        }
      }
      return results;
    },
    // No cache: a key is asked for again to be written (or read) again. The turn's I/O callbacks
    // all run before setImmediate's.
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch), maxBatchSize: options.maxBatchSize ?? 100 },
  );
  return (key) => loader.load(key);
}
