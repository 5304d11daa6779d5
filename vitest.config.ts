import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{gateway,services/*,libs/*,deploy/*,cli,bench,sdk/typescript}/src/**/*.test.ts', 'tests-e2e/src/**/*.test.ts'],
    testTimeout: 30_000,
    // A file's platform start shares two cores with the rest of the suite: give it room.
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
