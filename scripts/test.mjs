// `npm test`: install with the lockfile, build every process, type-check and lint (the code, then
// the OpenAPI document), then run the whole suite. End-to-end tests run on the embedded
// adapters, and on the real services as well when DATABASE_URL, REDIS_URL and AMQP_URL are set
// (each run in a fresh database and prefix).
import { pnpm, pnpmCaptured } from './pnpm.mjs';

// The checks are single-threaded and independent: run at once, they take the longest one's time
// (the type-check's) rather than the sum, on two cores some 25 s less.
const checks = [
  ['exec', 'tsc', '-p', 'tsconfig.json'],
  ['exec', 'eslint', '.'],
  ['run', 'lint:openapi'],
];

const real = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL'].filter((name) => process.env[name]);
console.log(real.length === 3 ? 'Testing on embedded and real infrastructure.' : 'Testing on embedded infrastructure only (set DATABASE_URL, REDIS_URL and AMQP_URL to include the real services).');

for (const args of [['install', '--frozen-lockfile'], ['run', 'build']]) {
  const status = pnpm(args);
  if (status !== 0) process.exit(status);
}

const results = await Promise.all(checks.map((args) => pnpmCaptured(args)));
results.forEach(({ status, output }, i) => {
  console.log(`> ${checks[i].join(' ')}${status === 0 ? '' : `: exit ${status}`}`);
  if (output.trim()) console.log(output.trimEnd());
});
const failed = results.find(({ status }) => status !== 0);
if (failed) process.exit(failed.status);

process.exit(pnpm(['exec', 'vitest', 'run', ...process.argv.slice(2)]));
