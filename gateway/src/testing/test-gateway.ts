import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createBus } from '@svc/bus';
import { createCache } from '@svc/cache';
import { SVC_VERSION } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { closeServer, listen } from '@svc/platform';
import { createGateway, type GatewayConfig, type GatewayDeps } from '../app.js';

const UNREACHABLE = 'http://127.0.0.1:1';

/**
 * The health checks and configuration of a gateway under test: every service unreachable
 * unless handed over in-process, rate limits off, always healthy, no proxy trusted (the
 * default). `overrides` replace settings.
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
      trustProxy: false,
      version: SVC_VERSION,
      ...overrides,
    },
  };
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * A gateway on its own (a memory cache and an in-process bus unless given others, no services
 * but those handed over in `deps`) listening on free loopback ports, the API's (`url`) and the dashboard
 * origin's (`dashboardUrl`), for tests of what it answers itself. Rate limits are on.
 */
export async function serveTestGateway(
  name: string,
  secret: string,
  overrides: Partial<GatewayConfig> = {},
  deps: Partial<Pick<GatewayDeps, 'inProcess' | 'cache' | 'bus'>> = {},
): Promise<{ url: string; dashboardUrl: string; stop(): Promise<void> }> {
  const cache = deps.cache ?? createCache({});
  const bus = deps.bus ?? (await createBus({}));
  const gateway = createGateway({ cache, bus, log: createLogger({ service: name, level: 'error', silent: true }), ...testGatewaySettings(secret, { rateLimitEnabled: true, ...overrides }), inProcess: deps.inProcess });
  const server = await listen(gateway.app, 0, '127.0.0.1');
  const dashboardServer = await listen(gateway.dashboardApp, 0, '127.0.0.1');
  return {
    url: urlOf(server),
    dashboardUrl: urlOf(dashboardServer),
    async stop() {
      await Promise.all([closeServer(server), closeServer(dashboardServer)]);
      await gateway.stop();
      if (!deps.bus) await bus.close();
      if (!deps.cache) await cache.close();
    },
  };
}
