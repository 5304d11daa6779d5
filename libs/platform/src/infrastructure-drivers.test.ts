import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createCache } from '@svc/cache';
import { createLogger } from '@svc/core';
import { createDatabase } from '@svc/db';
import { openInfrastructure } from './infrastructure.js';

/** The clients of the real Postgres, Redis and RabbitMQ. */
const NETWORK_DRIVERS = ['pg', 'ioredis', 'amqplib', 'amqp-connection-manager'];

/** The packages Node has loaded into this process (a test file has a process of its own). */
function loadedPackages(): Set<string> {
  const names = new Set<string>();
  for (const path of Object.keys(createRequire(import.meta.url).cache)) {
    const name = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].at(-1)?.[1];
    if (name) names.add(name);
  }
  return names;
}

describe('the drivers a process loads', () => {
  it('opens the embedded infrastructure without loading the clients of Postgres, Redis or RabbitMQ', async () => {
    const infra = await openInfrastructure({ SVC_DATA_DIR: 'unused-in-memory', SVC_BUS_PREFIX: '', SVC_CACHE_PREFIX: 'drivers-test:', LOG_LEVEL: 'error' }, createLogger({ service: 'drivers-test', silent: true }), { inMemory: true });
    try {
      expect([infra.database.kind, infra.cache.kind, infra.bus.kind]).toEqual(['pglite', 'memory', 'memory']);
      expect(NETWORK_DRIVERS.filter((name) => loadedPackages().has(name))).toEqual([]);
    } finally {
      await infra.close();
    }
  });

  it('loads a client with the first connection made to its server', async () => {
    // Nothing listens on port 9: neither makes a connection before a query needs one, or fails quietly.
    const database = await createDatabase({ url: 'postgres://svc@127.0.0.1:9/none' });
    const cache = createCache({ url: 'redis://127.0.0.1:9' });
    try {
      expect(['pg', 'ioredis'].filter((name) => loadedPackages().has(name))).toEqual(['pg', 'ioredis']);
    } finally {
      await cache.close();
      await database.close();
    }
  });
});
