import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity, type Membership } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, destroyBusPrefix, type Bus } from '@svc/bus';
import { createCache } from '@svc/cache';
import { createLogger } from '@svc/core';
import { createDatabase, createScratchDatabase, type Database } from '@svc/db';
import { createServiceApp } from '@svc/platform';
import { createRegistryService, type RegistryService } from '../app.js';

const SECRET = 'registry-test-internal-secret-0123456789';

/** An organization tenant, to put in several people's memberships. */
export interface TestOrg {
  tenantId: string;
  slug: string;
}

export function org(slug: string): TestOrg {
  return { tenantId: randomUUID(), slug };
}

/** A caller as the gateway would describe them: a personal tenant named `slug`, plus organizations. */
export function person(slug: string, options: { developer?: boolean; orgs?: TestOrg[] } = {}): Identity {
  const personal = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug, developerMode: options.developer ?? true });
  const orgs: Membership[] = (options.orgs ?? []).map((o) => ({ tenantId: o.tenantId, slug: o.slug, kind: 'organization', role: 'member' }));
  return { ...personal, memberships: [...personal.memberships, ...orgs] };
}

export interface RegistryHarness {
  registry: RegistryService;
  database: Database;
  bus: Bus;
  blobDir: string;
  /** supertest against the service's express app, as `identity` (or anonymous). */
  http(identity?: Identity): {
    get(path: string): request.Test;
    post(path: string): request.Test;
    delete(path: string): request.Test;
  };
  stop(): Promise<void>;
}

/**
 * The registry service on its own: real Postgres and RabbitMQ when DATABASE_URL and AMQP_URL
 * are set (a scratch database and a queue prefix, removed afterwards), PGlite and the
 * in-process bus otherwise; package files in a temporary folder.
 */
export async function startRegistry(): Promise<RegistryHarness> {
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL, 'registry') : undefined;
  const database = await createDatabase({ url: scratch?.url });
  const busPrefix = `registry-test-${randomBytes(4).toString('hex')}.`;
  const log = createLogger({ service: 'registry', level: 'error', silent: !process.env.E2E_LOGS });
  const bus = await createBus({ amqpUrl: process.env.AMQP_URL, prefix: busPrefix, logger: log });
  const blobDir = await mkdtemp(join(tmpdir(), 'svc-registry-'));
  const registry = createRegistryService({ database, cache: createCache(), bus, log, config: { blobStore: { localDir: blobDir } } });
  await registry.start();
  const app = createServiceApp({ service: 'registry', routes: registry.routes, internalSecret: SECRET, log });

  return {
    registry,
    database,
    bus,
    blobDir,
    http(identity) {
      const as = (test: request.Test) => (identity ? test.set(INTERNAL_IDENTITY_HEADER, signInternalIdentity(identity, SECRET)) : test);
      return {
        get: (path) => as(request(app).get(path)),
        post: (path) => as(request(app).post(path)),
        delete: (path) => as(request(app).delete(path)),
      };
    },
    async stop() {
      await registry.stop();
      await bus.close();
      await database.close();
      await rm(blobDir, { recursive: true, force: true });
      if (process.env.AMQP_URL) await destroyBusPrefix(process.env.AMQP_URL, busPrefix);
      await scratch?.drop();
    },
  };
}
