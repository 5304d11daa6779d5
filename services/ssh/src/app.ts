import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import type { Bus, Subscription } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { allowList } from '@svc/egress';
import { respondToExecRequests } from './events/target.responder.js';
import { targetRoutes } from './http/target.routes.js';
import { ConnectionPool } from './services/connection-pool.js';
import { credentialSealer } from './services/credential-sealer.js';
import { TargetService } from './services/target.service.js';

export const SSH_SCHEMA = 'ssh';
export const SSH_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface SshConfig {
  /** `SVC_SSH_ENCRYPTION_KEY`: base64 of the 32-byte key new credentials are sealed with. */
  encryptionKey: string;
  /** `SVC_SSH_PREVIOUS_KEYS`: keys credentials may still be sealed under; re-sealed at start. */
  previousKeys?: string[];
  /** How long a target's pooled connection stays open without a command. */
  idleSeconds: number;
  /** `SVC_SSH_ALLOWED_CIDRS`: private ranges targets may be in besides public addresses (none by default). */
  allowedCidrs?: string[];
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
}

export interface SshDeps {
  database: Database;
  bus: Bus;
  log: Logger;
  config: SshConfig;
}

export interface SshServiceHandle {
  routes: Router[];
  targets: TargetService;
  pool: ConnectionPool;
  /** Migrates, re-seals credentials left under previous keys and answers `ssh.exec`. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createSshService({ database, bus, log, config }: SshDeps): SshServiceHandle {
  const sealer = credentialSealer(config.encryptionKey, config.previousKeys);
  const pool = new ConnectionPool(config.idleSeconds * 1000);
  const allowed = config.allowedCidrs?.length ? allowList(config.allowedCidrs) : undefined;
  const targets = new TargetService({ db: database.db, sealer, pool, log, allowed });
  const subscriptions: Subscription[] = [];
  return {
    routes: [targetRoutes(targets)],
    targets,
    pool,
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? SSH_MIGRATIONS, schema: SSH_SCHEMA });
      const resealed = await targets.resealPrevious();
      if (resealed > 0) log.info('ssh credentials re-sealed under the current key', { resealed, key_id: sealer.currentKeyId });
      subscriptions.push(await respondToExecRequests(bus, targets));
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      pool.close();
    },
  };
}

export function sshConfigFromEnv(env: { SVC_SSH_ENCRYPTION_KEY: string; SVC_SSH_PREVIOUS_KEYS: string[]; SVC_SSH_IDLE_SECONDS: number; SVC_SSH_ALLOWED_CIDRS: string[] }): SshConfig {
  return { encryptionKey: env.SVC_SSH_ENCRYPTION_KEY, previousKeys: env.SVC_SSH_PREVIOUS_KEYS, idleSeconds: env.SVC_SSH_IDLE_SECONDS, allowedCidrs: env.SVC_SSH_ALLOWED_CIDRS };
}

export { SshEnv, loadSshEnv, sshEnv } from './env.js';
