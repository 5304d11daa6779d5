import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshClusterDump } from './fresh-cluster.js';
import { PGLITE_CONF } from './pglite-init.js';
import { openPgliteThread, type PgliteThread } from './pglite-thread.js';

const open = async () => openPgliteThread({ dataDir: 'memory://', conf: PGLITE_CONF, loadDataDir: await freshClusterDump() });

describe('the embedded database in a thread of its own', () => {
  let db: PgliteThread;
  beforeAll(async () => {
    db = await open();
    await db.exec(`create table notes (id int primary key, body text not null, at timestamptz not null default now())`);
  });
  afterAll(() => db.close());

  it("answers a failed statement with Postgres's error, its code and constraint kept", async () => {
    await db.query('insert into notes (id, body) values (1, $1)', ['first']);
    const err = await db.query('insert into notes (id, body) values (1, $1)', ['again']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 'notes_pkey', message: expect.stringContaining('duplicate key') });
  });

  it('commits a transaction whose work resolves and rolls back one whose work throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (10, $1)', ['kept']);
    });
    const failed = db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (11, $1)', ['lost']);
      throw new Error('the work failed');
    });
    await expect(failed).rejects.toThrow('the work failed');
    const { rows } = await db.query<{ id: number }>('select id from notes where id in (10, 11) order by id');
    expect(rows).toEqual([{ id: 10 }]);
  });

  it('holds a statement from outside until the open transaction ends, then shows it what the transaction wrote', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (20, $1)', ['during']);
      inside();
      await held;
    });
    await entered;
    let answered = false;
    const outside = db.query<{ n: number }>('select count(*)::int as n from notes where id = 20').then((result) => {
      answered = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ n: 1 }]);
  });

  it("runs a query's type parsers on the caller's side, on the text Postgres sent", async () => {
    const plain = await db.query<{ at: unknown }>(`select timestamptz '2026-01-02 03:04:05+00' as at`);
    expect(plain.rows[0]!.at).toBeInstanceOf(Date);
    const parsers = { [types.TIMESTAMPTZ]: (text: string) => `text:${text}` };
    const objects = await db.query<{ at: string }>(`select timestamptz '2026-01-02 03:04:05+00' as at`, [], { parsers });
    expect(objects.rows[0]!.at).toBe('text:2026-01-02 03:04:05+00');
    const arrays = await db.query<unknown[]>(`select 1 as n, timestamptz '2026-01-02 03:04:05+00' as at`, [], { parsers, rowMode: 'array' });
    expect(arrays.rows[0]).toEqual([1, 'text:2026-01-02 03:04:05+00']);
  });

  it("gives a busy spell's heap back while statements still trickle in, as an idle platform's pollers send them", async () => {
    // The looks of a platform's thread, 6 s apart: the pair of collections then also shrinks the
    // young generation, which V8 keeps while it saw much allocated over the last 5 s. Without V8's
    // own memory reducer (flags are the process's, read by each isolate made), which gives memory
    // back by itself some 15 to 30 s after a spell, only the thread's collections do.
    const loadDataDir = await freshClusterDump();
    v8.setFlagsFromString('--no-memory-reducer');
    const thread = await openPgliteThread({ dataDir: 'memory://', conf: PGLITE_CONF, loadDataDir }).finally(() => v8.setFlagsFromString('--memory-reducer'));
    try {
      for (let i = 0; i < 5; i++) await thread.query(`select repeat('x', 200) as body, n from generate_series(1, 20000) as n`);
      const busy = await thread.heapSize();
      // A statement every 2.5 s: no look goes without one, and a look, about five answers, stays
      // under 2 % busy while each answer takes up to 24 ms, as when a suite's processes crowd the
      // two cores (statements every 200 ms against looks every 250 ms once found every look busy).
      const started = Date.now();
      let after = busy;
      while (Date.now() - started < 20_000 && after > busy / 2) {
        await thread.query('select 1');
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        after = await thread.heapSize();
      }
      expect(after).toBeLessThan(busy / 2);
    } finally {
      await thread.close();
    }
  }, 40_000);

  it('refuses statements once closed, saying the thread ended, and closes again quietly', async () => {
    const other = await open();
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/thread ended/);
    await expect(other.close()).resolves.toBeUndefined();
  });
});

describe('a process of its own with the embedded database', () => {
  const module = fileURLToPath(new URL('./pglite-thread.ts', import.meta.url));
  const script = `
    const { readFileSync } = await import('node:fs');
    const { openPgliteThread } = await import(${JSON.stringify(module)});
    const loadDataDir = new Blob([readFileSync(${JSON.stringify(inject('freshClusterDump'))})]);
    const db = await openPgliteThread({ dataDir: 'memory://', conf: [], loadDataDir });
    const { rows } = await db.query('select 41 + 1 as n');
    console.log(rows[0].n);`;
  const run = (flags: string[]) => spawnSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });

  it('ends when its work is done: the idle thread does not keep it alive', () => {
    const child = run([]);
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('42');
    expect(child.status).toBe(0);
  });

  it("opens it under V8's own flags given to node, which Node refuses in a thread's list of flags", () => {
    const child = run(['--max-old-space-size=512', '--max-semi-space-size=32', '--expose-gc']);
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('42');
    expect(child.status).toBe(0);
  });
});
