// `npm run fuzz`: the long run of the contract fuzzing suite, 10,000 requests per operation
// (FUZZ_RUNS), on every operation or on those FUZZ_OPERATIONS names (comma-separated
// `METHOD /path`, as the document writes them), with FUZZ_SEED to replay a run. `npm test` runs the same suite briefly.
import { pnpm } from './pnpm.mjs';

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '10000' };
process.exit(pnpm(['exec', 'vitest', 'run', 'tests-e2e/src/fuzz.e2e.test.ts', ...process.argv.slice(2)], { env }));
