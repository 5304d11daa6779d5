import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{gateway,services/*,libs/*,deploy/*,cli,bench,sdk/typescript}/src/**/*.test.ts', 'tests-e2e/src/**/*.test.ts'],
    testTimeout: 30_000,
    // In-memory databases load one fresh cluster made for the whole run instead of each running
    // initdb (libs/db README, "Fresh clusters").
    globalSetup: ['libs/db/src/testing/fresh-cluster.global-setup.ts'],
    setupFiles: ['libs/db/src/testing/fresh-cluster.setup.ts'],
    // A file's platform start shares two cores with the rest of the suite: give it room.
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default on two cores is one file at a time; most files spend their time waiting on
    // a platform's processes, the broker and the database, so three share the cores well.
    poolOptions: { forks: { minForks: 1, maxForks: 3 } },
  },
});
