import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{gateway,services/*,libs/*,deploy/*,cli,bench}/src/**/*.test.ts', 'tests-e2e/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
