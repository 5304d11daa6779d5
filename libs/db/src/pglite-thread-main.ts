/**
 * The embedded database's own thread: this function's source is the whole program of the worker
 * thread that `openPgliteThread` starts (so it must use nothing but its arguments and `require`).
 * It opens PGlite and answers the statements posted to it; a transaction stays open between its
 * statements until its `end` comes, as PGlite's own `transaction` keeps it for a callback.
 */
export function pgliteThreadMain(require: NodeJS.Require): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { pglitePath, dataDir, loadDataDir, conf, idleLookMs } = workerData as { pglitePath: string; dataDir: string; loadDataDir?: Blob; conf: string[]; idleLookMs: number };
  const { PGlite } = require(pglitePath) as typeof import('@electric-sql/pglite');
  const v8 = require('node:v8') as typeof import('node:v8');
  const port = parentPort!;

  type Target = Pick<import('@electric-sql/pglite').Transaction, 'query' | 'exec'>;
  /** Open transactions, by id: their statements' target, and how to end one (settled once PGlite committed or rolled back). */
  const open = new Map<number, { tx: Target; end(commit: boolean): Promise<void> }>();
  let nextTx = 1;
  const ROLLBACK = Symbol('rollback');

  // Every field a Postgres error carries (code, constraint, detail…), which a structured clone of an Error drops.
  const plain = (err: unknown) => {
    const fields: Record<string, unknown> = {};
    if (err && typeof err === 'object') {
      for (const [key, value] of Object.entries(err)) if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
    }
    const e = err as { name?: string; message?: string } | undefined;
    return { ...fields, name: e?.name ?? 'Error', message: e?.message ?? String(err) };
  };

  const db = new PGlite(dataDir, { postgresqlconf: conf, loadDataDir });
  const raw = (value: string) => value;

  const begin = () =>
    new Promise<number>((started, failed) => {
      const id = nextTx++;
      const done = db
        .transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              open.set(id, {
                tx,
                end: (ok) => {
                  if (ok) commit();
                  else rollback(ROLLBACK);
                  return done;
                },
              });
              started(id);
            }),
        )
        .then(
          () => undefined,
          (err: unknown) => {
            if (err !== ROLLBACK) throw err;
          },
        );
      done.catch(failed);
    });

  const handle = async (message: Request): Promise<unknown> => {
    const target: Target = message.tx === undefined ? db : open.get(message.tx)!.tx;
    switch (message.op) {
      case 'query': {
        const parsers = Object.fromEntries((message.rawTypes ?? []).map((type) => [type, raw]));
        return target.query(message.sql, message.params, { rowMode: message.rowMode, parsers });
      }
      case 'exec':
        return target.exec(message.sql);
      case 'begin':
        return begin();
      case 'end': {
        const { end } = open.get(message.tx!)!;
        open.delete(message.tx!);
        return end(message.commit!);
      }
      case 'close':
        return db.close();
      case 'heap':
        return v8.getHeapStatistics().total_heap_size;
    }
  };

  interface Request {
    id: number;
    op: 'query' | 'exec' | 'begin' | 'end' | 'close' | 'heap';
    tx?: number;
    sql: string;
    params?: unknown[];
    rowMode?: 'array' | 'object';
    rawTypes?: number[];
    commit?: boolean;
  }

  // Id 0 answers the thread's start: the database is open, or could not be.
  db.waitReady.then(
    () => port.postMessage({ id: 0, result: null }),
    (err: unknown) => port.postMessage({ id: 0, error: plain(err) }),
  );
  // Gives a busy spell's heap back once the thread idles, as releaseMemoryWhenIdle does for the
  // process's main thread: two full collections at the next two looks that find its event loop
  // under 2 % busy. Idle is a share of the time, not silence: an idle platform's pollers ask
  // something every few seconds, and a thread that waited for a look without any statement
  // hardly ever collected (it held its 51 MB heap for half a minute after a load).
  const { performance } = require('node:perf_hooks') as typeof import('node:perf_hooks');
  v8.setFlagsFromString('--expose-gc');
  const gc = require('node:vm').runInNewContext('gc') as () => void;
  let since = performance.eventLoopUtilization();
  let collectionsDue = 2;
  setInterval(() => {
    const busy = performance.eventLoopUtilization(performance.eventLoopUtilization(), since).utilization >= 0.02;
    if (busy) collectionsDue = 2;
    else if (collectionsDue > 0) {
      gc();
      collectionsDue -= 1;
    }
    // Read after the collection, whose own time is not the next look's business.
    since = performance.eventLoopUtilization();
  }, idleLookMs).unref();
  port.on('message', (message: Request) => {
    handle(message).then(
      (result) => port.postMessage({ id: message.id, result }),
      (err: unknown) => port.postMessage({ id: message.id, error: plain(err) }),
    );
  });
}
