import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, type TestDatabase } from './testing/databases.js';
import { violatedUniqueConstraint } from './unique-violation.js';

/** The error `work` rejects with. */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.fail('expected the statement to fail'),
    (err: unknown) => err,
  );
}

describe.each(testDatabaseKinds())('violatedUniqueConstraint on $name', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await kind.open();
    await test.database.db.execute(sql`create table slugs (slug text not null constraint slugs_slug_unique unique)`);
    await test.database.db.execute(sql`insert into slugs (slug) values ('ada')`);
  });
  afterAll(() => test.dispose());

  it('names the constraint a duplicate insert violates', async () => {
    const err = await failureOf(test.database.db.execute(sql`insert into slugs (slug) values ('ada')`));
    expect(violatedUniqueConstraint(err)).toBe('slugs_slug_unique');
  });

  it('returns undefined for a failure other than a unique violation', async () => {
    const err = await failureOf(test.database.db.execute(sql`insert into slugs (slug) values (null)`));
    expect(violatedUniqueConstraint(err)).toBeUndefined();
  });
});

describe('violatedUniqueConstraint', () => {
  it('returns an empty name when the driver does not name the constraint', () => {
    expect(violatedUniqueConstraint(new Error('wrapped', { cause: { code: '23505' } }))).toBe('');
  });

  it('returns undefined for values that are not errors', () => {
    expect(violatedUniqueConstraint(undefined)).toBeUndefined();
    expect(violatedUniqueConstraint('23505')).toBeUndefined();
  });
});
