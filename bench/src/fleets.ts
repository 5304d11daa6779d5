import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cpuProfileFlags, platformEnv, PROCESS_NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { realInfra, type RealInfra } from './infra.js';
import { freePort, makeDataDir } from '@svc/testing';
import { launch, waitForHealthy, type Launched } from './processes.js';

export const OPERATOR = { email: 'bench-ops@example.test', password: 'bench-operator-1' };

export interface RunningFleet {
  /** The gateway. */
  url: string;
  /** The storage service itself (separate-process fleet only), for the gateway-hop comparison. */
  storageUrl?: string;
  internalSecret: string;
  process: Launched;
  dataDir: string;
  /**
   * Stops the processes and removes data, database and prefixes (all but the data folder with
   * `keepData`, for a restart on it); returns what was left behind.
   */
  stop(options?: { keepData?: boolean }): Promise<string[]>;
}

/** The environment every launch shares: operator, secrets, limits off, and only what Node needs. */
function baseEnv(dataDir: string, internalSecret: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SVC_DATA_DIR: dataDir,
    SVC_JWT_SECRET: randomBytes(32).toString('hex'),
    SVC_INTERNAL_SECRET: internalSecret,
    SVC_SSH_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SVC_ADMIN_EMAIL: OPERATOR.email,
    SVC_ADMIN_PASSWORD: OPERATOR.password,
    // Only sign-ins of the set-up pay for bcrypt; a low cost keeps them quick.
    SVC_BCRYPT_ROUNDS: '4',
    // Per-user limits (1000 a minute for enterprise) would throttle any load run.
    RATE_LIMIT_ENABLED: 'false',
    // One origin: B8 reads a bundle file at its entry point's path on the gateway's one port.
    SVC_DASHBOARD_ORIGIN_PORT: 'off',
    SVC_DASHBOARD_ORIGIN: 'none',
  };
}

const serviceUrls = (env: Record<string, string>) => Object.entries(env).filter(([name]) => name.endsWith('_URL')).map(([, url]) => url);

async function started(kind: string, args: string[], extraEnv: (dataDir: string) => Promise<Record<string, string>>, real: boolean, reuseDataDir?: string): Promise<RunningFleet> {
  const dataDir = reuseDataDir ?? makeDataDir(`svc-bench-${kind}-`);
  const internalSecret = randomBytes(32).toString('hex');
  const infra: RealInfra | undefined = real ? await realInfra(kind) : undefined;
  const port = await freePort();
  const extra = await extraEnv(dataDir);
  // With what `npm start` and `npm run fleet` give every process.
  const env = platformEnv({ ...baseEnv(dataDir, internalSecret), ...infra?.env, PORT: String(port), ...extra });
  const launched = launch(args, env, join(dataDir, `${kind}.log`));
  const url = `http://127.0.0.1:${port}`;
  const release = async () => {
    await launched.stop();
    return (await infra?.remove()) ?? [];
  };
  const stop = async (options: { keepData?: boolean } = {}) => {
    const left = await release();
    if (!options.keepData) await rm(dataDir, { recursive: true, force: true });
    return left;
  };
  try {
    await waitForHealthy(launched, `${url}/health`);
    // The gateway's health covers infrastructure and workers, not whether every service listens yet.
    for (const service of serviceUrls(extra)) await waitForHealthy(launched, service, 30_000, () => true);
  } catch (err) {
    // The data folder stays, for its log.
    await release();
    throw new Error(`${kind} did not start (log: ${launched.logFile}): ${(err as Error).message}`);
  }
  return { url, storageUrl: extra.SVC_STORAGE_URL, internalSecret, process: launched, dataDir, stop };
}

/**
 * `BENCH_CPU_PROF_DIR`: every process under test writes a CPU profile when it stops, into
 * `<dir>/<kind>` (for the separate-process fleet `<dir>/fleet/<process>`).
 */
const PROFILES = process.env.BENCH_CPU_PROF_DIR;

/**
 * Every service in one process (the standalone launcher), embedded or on the real services.
 * `BENCH_NODE_ARGS` adds Node flags to it (Node refuses `--cpu-prof` in NODE_OPTIONS).
 */
export function startStandalone(real: boolean, options: { reuseDataDir?: string; env?: Record<string, string> } = {}): Promise<RunningFleet> {
  const kind = real ? 'standalone-real' : 'standalone-embedded';
  const flags = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const profiling = PROFILES ? cpuProfileFlags(join(PROFILES, kind)) : [];
  return started(kind, [...PROCESS_NODE_FLAGS, ...flags, ...profiling, 'deploy/standalone/dist/main.js'], async () => options.env ?? {}, real, options.reuseDataDir);
}

/** Every service as its own process (`scripts/fleet.mjs`) on the real services, as deployed. */
export function startProcessFleet(): Promise<RunningFleet> {
  return started(
    'fleet',
    ['scripts/fleet.mjs'],
    async () => {
      const env: Record<string, string> = PROFILES ? { SVC_CPU_PROF_DIR: join(PROFILES, 'fleet') } : {};
      for (const service of ['identity', 'registry', 'execution', 'storage', 'admin', 'billing', 'dashboard', 'ssh']) {
        const port = String(await freePort());
        env[`SVC_${service.toUpperCase()}_PORT`] = port;
        env[`SVC_${service.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
      }
      return env;
    },
    true,
  );
}
