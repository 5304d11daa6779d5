import { describe, expect, it } from 'vitest';
import type { Db } from './database.js';
import { perDatabase } from './per-database.js';

describe('perDatabase', () => {
  it('makes the value once for each database, and anew for another', () => {
    const made: Db[] = [];
    const statementsFor = perDatabase((db) => {
      made.push(db);
      return { db };
    });
    const [one, two] = [{} as Db, {} as Db];
    const first = statementsFor(one);
    expect(statementsFor(one)).toBe(first);
    expect(statementsFor(two)).not.toBe(first);
    expect(statementsFor(two).db).toBe(two);
    expect(made).toEqual([one, two]);
  });
});
