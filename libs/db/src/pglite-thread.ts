import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ParserOptions, QueryOptions, Results } from '@electric-sql/pglite';
import { pgliteThreadMain } from './pglite-thread-main.js';

export interface PgliteThreadOptions {
  /** `memory://` or a data directory that holds a cluster already (`initPgliteDataDir`). */
  dataDir: string;
  /** A dump (`dumpDataDir`) an in-memory cluster starts from instead of running initdb. */
  loadDataDir?: Blob;
  /** `postgresql.conf` lines. */
  conf: string[];
}

/**
 * How often the thread looks whether it idles, to give a busy spell's heap back: over V8's 5 s
 * window of allocation, as `releaseMemoryWhenIdle`'s looks.
 */
const IDLE_LOOK_MS = 6_000;

/** What drizzle's PGlite driver and the migrator call on a database or on one of its transactions. */
export interface PgliteClient {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface PgliteThread extends PgliteClient {
  /** Runs `work` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: PgliteClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** What the thread's V8 heap takes of the process's memory, in bytes (its isolate's `total_heap_size`, which only a collection that gives memory back shrinks; PGlite's WebAssembly memory is not in it). */
  heapSize(): Promise<number>;
}

/**
 * The helper a transpiler that keeps function names (esbuild's `keepNames`, as tsx runs it) calls
 * in the source it emits; the thread's program is that source alone, so it gets one that does nothing.
 */
const KEEP_NAMES_HELPER = 'var __name = (target) => target;';

interface Reply {
  id: number;
  result?: unknown;
  error?: Record<string, unknown> & { name: string; message: string };
}

/** An error of the database's thread as the caller sees it: code, constraint and the rest kept. */
function errorOf(fields: NonNullable<Reply['error']>): Error {
  return Object.assign(new Error(fields.message), fields);
}

/**
 * The embedded database, run in a worker thread of its own: its statements (WebAssembly Postgres,
 * synchronous while they run) then take the process's second core instead of the thread that
 * answers requests, which is where an embedded platform's event consumers used to spend a quarter
 * of it (BENCHMARKS.md, seventeenth round). Statements travel as messages; each of a transaction's
 * carries the transaction's id, and the thread keeps the transaction open between them, as
 * PGlite's own `transaction` does for its callback.
 *
 * Type parsers cannot cross a thread (they are functions): the thread leaves the values of the
 * types a query has parsers for as Postgres's text, and the parsers run here on the result.
 */
export async function openPgliteThread(options: PgliteThreadOptions): Promise<PgliteThread> {
  const pglitePath = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // The thread inherits the process's Node flags as Node passes them on: a list of our own would
  // have to leave out V8's (`--max-old-space-size`, which apply to every thread anyway), which
  // Node refuses there. So the program runs as a script or, in a process whose own `-e` code is a
  // module (`--input-type=module`), as a module: it makes its `require` itself, by `import()`.
  const program = `${KEEP_NAMES_HELPER} import('node:module').then(({ createRequire }) => (${pgliteThreadMain.toString()})(createRequire(${JSON.stringify(pglitePath)})));`;
  const worker = new Worker(program, { eval: true, workerData: { ...options, idleLookMs: IDLE_LOOK_MS, pglitePath } });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let nextId = 1;
  let gone: Error | undefined;

  // The thread keeps the process alive only while a statement waits on it, as a database in this
  // thread would: an idle one must not stop the process from ending.
  const settle = (id: number) => {
    const call = waiting.get(id);
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
    return call;
  };
  worker.on('message', ({ id, result, error }: Reply) => {
    const call = settle(id);
    if (error) call?.reject(errorOf(error));
    else call?.resolve(result);
  });
  const fail = (err: Error) => {
    gone = err;
    for (const id of [...waiting.keys()]) settle(id)?.reject(err);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The embedded database's thread ended (exit code ${code})`)));

  /** The thread's answer to message `id`. */
  const answer = <T>(id: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (gone) return reject(gone);
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
  const call = <T>(request: Record<string, unknown>): Promise<T> => {
    const id = nextId++;
    const answered = answer<T>(id);
    if (!gone) worker.postMessage({ ...request, id });
    return answered;
  };

  const clientOf = (tx?: number): PgliteClient => ({
    async query<T>(sql: string, params?: unknown[], queryOptions: QueryOptions = {}) {
      const parsers: ParserOptions = queryOptions.parsers ?? {};
      const rawTypes = Object.keys(parsers).map(Number);
      const result = await call<Results<T>>({ op: 'query', tx, sql, params, rowMode: queryOptions.rowMode, rawTypes });
      return rawTypes.length === 0 ? result : parsed(result, parsers);
    },
    exec: (sql: string) => call<Results[]>({ op: 'exec', tx, sql }),
  });

  await answer(0); // the thread's start: the database opened, or could not
  return {
    ...clientOf(),
    async transaction(work) {
      const tx = await call<number>({ op: 'begin' });
      let result;
      try {
        result = await work(clientOf(tx));
      } catch (err) {
        // The work's error is the one to report; a rollback that fails too leaves a thread the next statement finds gone.
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw err;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    heapSize: () => call<number>({ op: 'heap' }),
    async close() {
      if (gone) return;
      await call({ op: 'close' });
      await worker.terminate();
    },
  };
}

/** `result` with `parsers` applied to the columns of their types (left as text by the thread). */
function parsed<T>(result: Results<T>, parsers: ParserOptions): Results<T> {
  const columns = result.fields.flatMap((field, index) => {
    const parse = parsers[field.dataTypeID];
    return parse ? [{ index, name: field.name, parse }] : [];
  });
  if (columns.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const { index, name, parse } of columns) {
      const key = Array.isArray(row) ? index : name;
      if (typeof row[key] === 'string') row[key] = parse(row[key]);
    }
  }
  return result;
}
