import type { ExecutionConfig } from '../config.js';

/** The execution API's configuration in its own tests: no rate limits, short retries, one small runner. */
export const API_TEST_CONFIG: ExecutionConfig = {
  version: 'test',
  rateLimit: { enabled: false, storage: 'memory' },
  syncWaitMs: 1000,
  retentionMs: 3_600_000,
  retryBaseMs: 50,
  retryMaxMs: 100,
  runnerMemoryMb: 64,
  runnerIdleMs: 1000,
  maxRunners: 1,
  prefetch: { fast: 1, medium: 1, long: 1 },
  dataDir: '/nonexistent',
};
