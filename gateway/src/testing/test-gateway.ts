import { SVC_VERSION } from '@svc/contracts';
import type { GatewayConfig, GatewayDeps } from '../app.js';

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
      services: { identity: UNREACHABLE, registry: UNREACHABLE, execution: UNREACHABLE, storage: UNREACHABLE, admin: UNREACHABLE },
      rateLimitEnabled: false,
      rateLimitStorage: 'memory',
      commandGroupLimit: { points: 100, durationSeconds: 60 },
      trustProxy: 'loopback',
      version: SVC_VERSION,
      ...overrides,
    },
  };
}
