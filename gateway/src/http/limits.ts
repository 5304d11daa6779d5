/**
 * The numbers of the rate limits only the gateway applies (Part 1 "Limits"); the tier limits
 * and the command-run budget are in `@svc/rate-limit`, which the MCP endpoint uses too. Every
 * window is fixed: it starts with the first request and resets whole.
 */
import type { LimitSpec } from '@svc/rate-limit';

export type EndpointGroup = 'commands' | 'storage' | 'other';

/** Which per-user endpoint-group budget a path draws on. */
export function endpointGroupOf(path: string): EndpointGroup {
  if (path === '/api/v1/commands' || path.startsWith('/api/v1/commands/')) return 'commands';
  if (path === '/api/v1/storage' || path.startsWith('/api/v1/storage/')) return 'storage';
  return 'other';
}

/** `RATE_LIMIT_REQUESTS` per `RATE_LIMIT_WINDOW` seconds: the size of the commands group. */
export interface CommandGroupLimit {
  points: number;
  durationSeconds: number;
}

/** The spec's commands group: 100 requests per minute. */
export const DEFAULT_COMMAND_GROUP_LIMIT: CommandGroupLimit = { points: 100, durationSeconds: 60 };

/** Per user and endpoint group; the stricter of this and the tier limit governs. */
export function groupLimits(commands: CommandGroupLimit): Record<EndpointGroup, LimitSpec> {
  return {
    commands: { name: 'group-commands', ...commands },
    storage: { name: 'group-storage', points: 200, durationSeconds: 60 },
    other: { name: 'group-other', points: 1000, durationSeconds: 60 },
  };
}

/**
 * Per client IP, on the public endpoints (nobody to count against yet). Sign-in covers both
 * password checks (login and change-password/login); refresh covers body and cookie refresh.
 */
export const IP_LIMITS = {
  'sign-in': { points: 30, durationSeconds: 60 },
  register: { points: 10, durationSeconds: 60 },
  'token-refresh': { points: 60, durationSeconds: 60 },
  'access-code-validate': { points: 10, durationSeconds: 60 },
  // Forgotten passwords: each request may send an e-mail and each confirmation hashes a password.
  // identity also limits the requests per address.
  'password-reset': { points: 10, durationSeconds: 60 },
  telemetry: { points: 60, durationSeconds: 60 },
  'billing-plans': { points: 60, durationSeconds: 60 },
  // Part 2 "Limits": registration checkout, 5 requests per 60 seconds per IP.
  'registration-checkout': { points: 5, durationSeconds: 60 },
  // A buyer's page polls its session every few seconds until the payment arrives.
  'registration-session': { points: 60, durationSeconds: 60 },
  // The processor delivers from a few addresses, in bursts (retries after an outage).
  'payment-webhook': { points: 600, durationSeconds: 60 },
  // MCP clients discovering the authorization server and opening its consent page.
  oauth: { points: 120, durationSeconds: 60 },
  // Dynamic client registration writes a row per call: as scarce as account registration.
  'oauth-registration': { points: 10, durationSeconds: 60 },
  // A dashboard opened through a share link loads its main.js and assets: room for a few opens a minute.
  'shared-dashboard': { points: 600, durationSeconds: 60 },
} as const satisfies Record<string, Omit<LimitSpec, 'name'>>;

export type IpLimitName = keyof typeof IP_LIMITS;

/**
 * Per client IP, for answers given before the caller is known (no route, missing or refused
 * credentials, a body declared too large): the spec's "other /api/v1/*" size. It gives those
 * answers their X-RateLimit-* headers and bounds how fast one address may probe credentials.
 */
export const UNKNOWN_CALLER_LIMIT = { name: 'ip-unknown-caller', points: 1000, durationSeconds: 60 } as const satisfies LimitSpec;

/** `POST /api/v1/commands/{namespace}/{name}`: a command run, which also draws on the command-run budget. */
export function isCommandRun(method: string, path: string): boolean {
  return method === 'POST' && /^\/api\/v1\/commands\/[^/]+\/[^/]+\/?$/.test(path);
}
