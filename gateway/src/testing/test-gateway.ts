import type { AddressInfo } from 'node:net';
import { createBus } from '@svc/bus';
import { createCache } from '@svc/cache';
import { SVC_VERSION } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { closeServer, listen } from '@svc/platform';
import { createGateway, type GatewayConfig, type GatewayDeps } from '../app.js';

const UNREACHABLE = 'http://127.0.0.1:1';

/**
 * The health checks and configuration of a gateway under test: every service unreachable
 * unless handed over in-process, rate limits off, always healthy. `overrides` replace settings.
 */
export function testGatewaySettings(secret: string, overrides: Partial<GatewayConfig> = {}): Pick<GatewayDeps, 'health' | 'config'> {
  return {
    health: { database: async () => true, cache: async () => true, worker: async () => true },
    config: {
      jwtSecret: secret,
      internalSecret: secret,
      services: { identity: UNREACHABLE, registry: UNREACHABLE, execution: UNREACHABLE, storage: UNREACHABLE, admin: UNREACHABLE, billing: UNREACHABLE, notify: UNREACHABLE, dashboard: UNREACHABLE, ssh: UNREACHABLE },
      rateLimitEnabled: false,
      rateLimitStorage: 'memory',
      commandGroupLimit: { points: 100, durationSeconds: 60 },
      trustProxy: 'loopback',
      version: SVC_VERSION,
      ...overrides,
    },
  };
}

/**
 * A gateway on its own (memory cache, in-process bus, no services) listening on a free loopback
 * port, for tests of what it answers itself.
 */
export async function serveTestGateway(name: string, secret: string): Promise<{ url: string; stop(): Promise<void> }> {
  const cache = createCache({});
  const bus = await createBus({});
  const gateway = createGateway({ cache, bus, log: createLogger({ service: name, level: 'error', silent: true }), ...testGatewaySettings(secret, { rateLimitEnabled: true }) });
  const server = await listen(gateway.app, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await closeServer(server);
      await gateway.stop();
      await bus.close();
      await cache.close();
    },
  };
}
