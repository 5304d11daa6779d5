import { createDatabase, type Database } from '../database.js';
import { createScratchDatabase } from '../scratch.js';

/** A database for one test file, and how to be rid of it. */
export interface TestDatabase {
  database: Database;
  dispose(): Promise<void>;
}

export interface TestDatabaseKind {
  name: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

/**
 * The databases a repository or service test runs on: an in-memory PGlite always, and a fresh
 * scratch database on the real server when `DATABASE_URL` is set (dropped by `dispose`).
 *
 * @example
 *   describe.each(testDatabaseKinds())('storage on $name', (kind) => {
 *     let db: TestDatabase;
 *     beforeAll(async () => { db = await kind.open(); });
 *     afterAll(() => db.dispose());
 *   });
 */
export function testDatabaseKinds(adminUrl = process.env.DATABASE_URL): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [
    {
      name: 'pglite',
      async open() {
        const database = await createDatabase({});
        return { database, dispose: () => database.close() };
      },
    },
  ];
  if (adminUrl) {
    kinds.push({
      name: 'postgres',
      async open() {
        const scratch = await createScratchDatabase(adminUrl, 'unit');
        const database = await createDatabase({ url: scratch.url });
        return {
          database,
          async dispose() {
            await database.close();
            await scratch.drop();
          },
        };
      },
    });
  }
  return kinds;
}
