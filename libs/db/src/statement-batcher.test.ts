import { describe, expect, it } from 'vitest';
import { statementBatcher } from './statement-batcher.js';

/** A write that records every statement it is given and answers each key doubled, refusing `bad`. */
function recordingWrite(bad?: string) {
  const statements: string[][] = [];
  const write = async (keys: string[]) => {
    statements.push([...keys]);
    if (bad !== undefined && keys.includes(bad)) throw new Error(`refused ${bad}`);
    return keys.map((key) => key + key);
  };
  return { statements, write };
}

const rowOf = (key: string) => key;

/** Asks for `key` after `awaits` settled promises, as a handler does after reading what is in memory. */
function askedAfter(batched: (key: string) => Promise<string>) {
  return async (key: string, awaits: number) => {
    for (let i = 0; i < awaits; i++) await Promise.resolve();
    return batched(key);
  };
}

describe('statementBatcher', () => {
  it('runs the keys asked for in one turn as one statement, each caller getting its own value', async () => {
    const { statements, write } = recordingWrite();
    const batched = statementBatcher(write, { rowOf });
    await expect(Promise.all(['a', 'b', 'c'].map(batched))).resolves.toEqual(['aa', 'bb', 'cc']);
    expect(statements).toEqual([['a', 'b', 'c']]);
  });

  it('runs a key asked for alone at once, without waiting for others', async () => {
    const { statements, write } = recordingWrite();
    const batched = statementBatcher(write, { rowOf });
    expect(await batched('a')).toBe('aa');
    expect(await batched('b')).toBe('bb');
    expect(statements).toEqual([['a'], ['b']]);
  });

  it('gathers keys asked for after awaits that settle within the same turn', async () => {
    const { statements, write } = recordingWrite();
    const batched = askedAfter(statementBatcher(write, { rowOf }));
    await expect(Promise.all([batched('a', 1), batched('b', 3)])).resolves.toEqual(['aa', 'bb']);
    expect(statements).toEqual([['a', 'b']]);
  });

  it('runs a row asked for twice in one turn in a second statement, after the first', async () => {
    const { statements, write } = recordingWrite();
    const batched = statementBatcher(write, { rowOf });
    await expect(Promise.all(['a', 'b', 'a', 'a'].map(batched))).resolves.toEqual(['aa', 'bb', 'aa', 'aa']);
    expect(statements).toEqual([['a', 'b'], ['a'], ['a']]);
  });

  it('runs reads (no rowOf) of one row asked for in one turn in the same statement', async () => {
    const { statements, write: read } = recordingWrite();
    const batched = statementBatcher(read, {});
    await expect(Promise.all(['a', 'b', 'a', 'a'].map(batched))).resolves.toEqual(['aa', 'bb', 'aa', 'aa']);
    expect(statements).toEqual([['a', 'b', 'a', 'a']]);
  });

  it('puts no more keys in one statement than maxBatchSize', async () => {
    const { statements, write } = recordingWrite();
    const batched = statementBatcher(write, { rowOf, maxBatchSize: 2 });
    await Promise.all(['a', 'b', 'c'].map(batched));
    expect(statements).toEqual([['a', 'b'], ['c']]);
  });

  it('puts no more bytes in one statement than maxBatchBytes, unless a key alone exceeds them', async () => {
    const { statements, write } = recordingWrite();
    const batched = statementBatcher(write, { rowOf, sizeOf: (key) => key.length, maxBatchBytes: 4 });
    await expect(Promise.all(['aa', 'bb', 'c', 'dddddd', 'e'].map(batched))).resolves.toEqual(['aaaa', 'bbbb', 'cc', 'dddddddddddd', 'ee']);
    expect(statements).toEqual([['aa', 'bb'], ['c', 'e'], ['dddddd']]);
  });

  it("keeps a row's later key in a later statement, even where an earlier one has room", async () => {
    const { statements, write } = recordingWrite();
    const batched = statementBatcher(write, { rowOf: (key) => key[0]!, sizeOf: (key) => key.length, maxBatchBytes: 4 });
    await Promise.all(['xxx', 'yyy', 'x'].map(batched));
    expect(statements).toEqual([['xxx'], ['yyy', 'x']]);
  });

  it('runs every key on its own when the statement fails, so only the bad one fails', async () => {
    const { statements, write } = recordingWrite('b');
    const batched = statementBatcher(write, { rowOf });
    const settled = await Promise.allSettled(['a', 'b', 'c'].map(batched));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['aa', 'refused b', 'cc']);
    expect(statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('fails every key of a statement that lost its connection, without trying each again', async () => {
    const statements: string[][] = [];
    const batched = statementBatcher(
      async (keys: string[]) => {
        statements.push(keys);
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      { rowOf },
    );
    const settled = await Promise.allSettled(['a', 'b'].map(batched));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason.code).toBe('ECONNREFUSED');
    expect(statements).toEqual([['a', 'b']]);
  });
});
