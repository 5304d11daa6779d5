import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * `npm run fleet` (`scripts/fleet.mjs`, built bundles) as a child on the test's real Postgres
 * (`databaseUrl`, a scratch database), Redis and RabbitMQ, its names under `<prefix>.` (bus) and
 * `<prefix>:` (cache), with fresh secrets and `env` (ports, service URLs, …); its output ignored.
 */
export function spawnFleet(databaseUrl: string, prefix: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['scripts/fleet.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      AMQP_URL: process.env.AMQP_URL,
      SVC_BUS_PREFIX: `${prefix}.`,
      SVC_CACHE_PREFIX: `${prefix}:`,
      SVC_JWT_SECRET: randomBytes(32).toString('hex'),
      SVC_INTERNAL_SECRET: randomBytes(32).toString('hex'),
      SVC_SSH_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SVC_BCRYPT_ROUNDS: '4',
      ...env,
    },
  });
}
