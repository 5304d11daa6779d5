// `npm test`: install with the lockfile, build every process, type-check, lint (the code, then
// the OpenAPI document), then run the whole suite. End-to-end tests run on the embedded
// adapters, and on the real services as well when DATABASE_URL, REDIS_URL and AMQP_URL are set
// (each run in a fresh database and prefix).
import { pnpm } from './pnpm.mjs';

const steps = [
  ['install', '--frozen-lockfile'],
  ['run', 'build'],
  ['exec', 'tsc', '-p', 'tsconfig.json'],
  ['exec', 'eslint', '.'],
  ['run', 'lint:openapi'],
  ['exec', 'vitest', 'run', ...process.argv.slice(2)],
];

const real = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL'].filter((name) => process.env[name]);
console.log(real.length === 3 ? 'Testing on embedded and real infrastructure.' : 'Testing on embedded infrastructure only (set DATABASE_URL, REDIS_URL and AMQP_URL to include the real services).');

for (const args of steps) {
  const status = pnpm(args);
  if (status !== 0) process.exit(status);
}
