import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTimeout } from '@svc/core';
import { freePort, startTcpProxy, type TcpProxy } from '@svc/testing';
import { isConnectionFailure } from './connection-failure.js';
import { createDatabase, type Database } from './database.js';
import { createScratchDatabase } from './scratch.js';

const failureOf = (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => expect.fail('expected the statement to fail'),
    (err: unknown) => err,
  );

describe.runIf(process.env.DATABASE_URL)('isConnectionFailure on Postgres', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let proxy: TcpProxy;
  let database: Database;
  const reported: unknown[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'unit');
    const url = new URL(scratch.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    database = await createDatabase({ url: url.toString(), onError: (err) => reported.push(err) });
  });

  afterAll(async () => {
    proxy?.resume();
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it('is false for a statement the server refuses', async () => {
    expect(isConnectionFailure(await failureOf(database.db.execute(sql`select * from no_such_table`)))).toBe(false);
  });

  it('is true for a query on a connection cut under it, and for a server that cannot be reached', async () => {
    await database.db.execute(sql`select 1`);
    proxy.cut();
    expect(isConnectionFailure(await failureOf(database.db.execute(sql`select pg_sleep(0.1)`)))).toBe(true);
    expect(isConnectionFailure(await failureOf(database.db.execute(sql`select 1`)))).toBe(true);
    proxy.resume();
    await database.db.execute(sql`select 1`);

    const nowhere = await createDatabase({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, onError: () => undefined });
    expect(isConnectionFailure(await failureOf(nowhere.db.execute(sql`select 1`)))).toBe(true);
    await nowhere.close();
  });

  it('reports a connection cut while a transaction holds it between statements, and fails only that transaction', async () => {
    reported.length = 0;
    const held = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      proxy.cut();
      // Between statements the client is checked out of the pool: its loss must reach onError, not crash the process.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    expect(isConnectionFailure(await failureOf(held))).toBe(true);
    expect(reported.length).toBeGreaterThan(0);
    proxy.resume();
    await database.db.execute(sql`select 1`);
  });

  it('gives back a client whose connection died as a transaction began: the pool keeps its size and closes', async () => {
    const url = new URL(scratch.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const own = await createDatabase({ url: url.toString(), onError: () => undefined, poolSize: 1 });
    await own.db.execute(sql`select 1`);
    // The idle client learns of the cut only on a later turn: the transaction takes it, and its begin fails.
    proxy.cut();
    expect(isConnectionFailure(await failureOf(own.db.transaction((tx) => tx.execute(sql`select 1`))))).toBe(true);
    proxy.resume();
    // With its only client lost, the pool would answer nothing more, and never close.
    await own.db.transaction((tx) => tx.execute(sql`select 1`));
    await withTimeout(own.close(), 5000, () => new Error('the pool did not close'));
  });
});
