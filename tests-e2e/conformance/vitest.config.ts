import { defineConfig } from 'vitest/config';

/** The MCP conformance suite against the platform (`run.sh`), kept out of `npm test`'s glob: CI runs it as a step of its own. */
export default defineConfig({
  test: {
    include: ['tests-e2e/conformance/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
