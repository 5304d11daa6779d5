import { VIEW_TOKEN_PATH } from '@svc/auth';
import { DASHBOARD_UPLOAD_BODY_LIMIT_BYTES, PACKAGE_UPLOAD_BODY_LIMIT_BYTES } from '@svc/contracts';
import type { IpLimitName } from '../http/limits.js';

/**
 * Which service owns which path, and what a caller must present to reach it. The gateway
 * answers a JSON 404 for everything not listed here.
 */

export type ServiceName = 'identity' | 'registry' | 'execution' | 'storage' | 'admin' | 'billing' | 'notify' | 'dashboard' | 'ssh';

/**
 * `public`: no credentials; `jwt`: an access token; `jwt-or-key`: either; `key-or-oauth`: an API
 * key or an OAuth access token for the MCP resource (a 401 carries the `WWW-Authenticate`
 * challenge naming the resource's metadata); `view-token`: a dashboard view token in the path,
 * whose session is the caller's.
 */
export type AuthPolicy = 'public' | 'jwt' | 'jwt-or-key' | 'key-or-oauth' | 'view-token';

export interface RouteRule {
  service: ServiceName;
  /** Path prefix; `exact` restricts the rule to that one path. */
  path: string;
  exact?: boolean;
  methods?: string[];
  auth: AuthPolicy;
  /** Name of a per-client-IP rate limit applied before authentication (every public route has one). */
  ipLimit?: IpLimitName;
  /** Largest declared body, in bytes, when it is not the JSON limit (uploads). */
  bodyLimit?: number;
  /**
   * Served to pages of any origin (CORS, no credentials): the OAuth metadata and the token,
   * registration and revocation endpoints, which MCP clients running in a browser (the MCP
   * Inspector) call from their own origin. Their preflight is answered by the gateway.
   */
  cors?: true;
}

export const ROUTES: RouteRule[] = [
  { service: 'identity', path: '/api/v1/auth/register', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'register' },
  { service: 'identity', path: '/api/v1/auth/login', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'sign-in' },
  { service: 'identity', path: '/api/v1/auth/refresh', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'token-refresh' },
  { service: 'identity', path: '/api/v1/auth/refresh-cookie', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'token-refresh' },
  { service: 'identity', path: '/api/v1/auth/change-password/login', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'sign-in' },
  { service: 'identity', path: '/api/v1/auth/password-reset', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'password-reset' },
  { service: 'identity', path: '/api/v1/auth/password-reset/confirm', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'password-reset' },
  { service: 'identity', path: '/api/v1/access-codes/validate', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'access-code-validate' },
  { service: 'identity', path: '/api/v1/auth', auth: 'jwt' },
  { service: 'identity', path: '/api/v1/users', auth: 'jwt' },
  { service: 'identity', path: '/api/v1/access-codes', auth: 'jwt' },
  // Keys reach key management only to be told they may not use it (403).
  { service: 'identity', path: '/api/v1/account/api-keys', auth: 'jwt-or-key' },
  { service: 'identity', path: '/api/v1/account', auth: 'jwt' },
  { service: 'identity', path: '/api/v1/organizations', auth: 'jwt' },
  { service: 'identity', path: '/api/v1/namespaces', auth: 'jwt' },
  { service: 'registry', path: '/api/v1/registry/packs', exact: true, methods: ['POST'], auth: 'jwt', bodyLimit: PACKAGE_UPLOAD_BODY_LIMIT_BYTES },
  { service: 'registry', path: '/api/v1/registry', auth: 'jwt' },
  { service: 'registry', path: '/api/v1/packs', auth: 'jwt' },
  // Running a command (POST) belongs to execution; the catalog is read with a token or a key.
  { service: 'registry', path: '/api/v1/commands', methods: ['GET'], auth: 'jwt-or-key' },
  { service: 'execution', path: '/api/v1/commands', methods: ['POST'], auth: 'jwt-or-key' },
  { service: 'execution', path: '/api/v1/tasks', auth: 'jwt-or-key' },
  { service: 'execution', path: '/mcp', exact: true, auth: 'key-or-oauth' },
  // The authorization server for MCP clients (identity) and the MCP resource's metadata.
  { service: 'identity', path: '/.well-known/oauth-authorization-server', exact: true, methods: ['GET'], auth: 'public', ipLimit: 'oauth', cors: true },
  { service: 'identity', path: '/.well-known/oauth-protected-resource', exact: true, methods: ['GET'], auth: 'public', ipLimit: 'oauth', cors: true },
  { service: 'identity', path: '/.well-known/oauth-protected-resource/mcp', exact: true, methods: ['GET'], auth: 'public', ipLimit: 'oauth', cors: true },
  { service: 'identity', path: '/oauth/authorize', exact: true, methods: ['GET', 'POST'], auth: 'public', ipLimit: 'oauth' },
  // The consent page's sign-in checks a password: the sign-in limit.
  { service: 'identity', path: '/oauth/consent', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'sign-in' },
  { service: 'identity', path: '/oauth/token', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'token-refresh', cors: true },
  { service: 'identity', path: '/oauth/revoke', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'token-refresh', cors: true },
  { service: 'identity', path: '/oauth/register', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'oauth-registration', cors: true },
  { service: 'execution', path: '/api/v1/schedules', auth: 'jwt' },
  { service: 'storage', path: '/api/v1/storage', auth: 'jwt' },
  { service: 'storage', path: '/api/v1/secrets', auth: 'jwt' },
  { service: 'admin', path: '/api/v1/telemetry', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'telemetry' },
  { service: 'admin', path: '/api/v1/usage', methods: ['GET'], auth: 'jwt' },
  { service: 'admin', path: '/api/v1/usage/limits', exact: true, methods: ['PUT'], auth: 'jwt' },
  { service: 'admin', path: '/api/v1/admin', auth: 'jwt' },
  { service: 'admin', path: '/api/v1/metrics', methods: ['GET'], auth: 'jwt' },
  { service: 'execution', path: '/api/v1/sandbox/packs', exact: true, methods: ['PUT'], auth: 'jwt-or-key', bodyLimit: PACKAGE_UPLOAD_BODY_LIMIT_BYTES },
  { service: 'execution', path: '/api/v1/sandbox', auth: 'jwt-or-key' },
  { service: 'billing', path: '/api/v1/billing/plans', exact: true, methods: ['GET'], auth: 'public', ipLimit: 'billing-plans' },
  // The processor signs its events; there is no caller to authenticate.
  { service: 'billing', path: '/api/v1/billing/webhook', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'payment-webhook' },
  { service: 'billing', path: '/api/v1/billing', auth: 'jwt' },
  { service: 'billing', path: '/api/v1/registration/checkout', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'registration-checkout' },
  { service: 'billing', path: '/api/v1/registration/session', methods: ['GET'], auth: 'public', ipLimit: 'registration-session' },
  { service: 'billing', path: '/api/v1/registration/webhook', exact: true, methods: ['POST'], auth: 'public', ipLimit: 'payment-webhook' },
  { service: 'notify', path: '/api/v1/webhooks', auth: 'jwt' },
  // Bundle uploads are the only large POSTs here; the service's JSON parser bounds the others.
  { service: 'dashboard', path: '/api/v1/dashboards', methods: ['POST'], auth: 'jwt', bodyLimit: DASHBOARD_UPLOAD_BODY_LIMIT_BYTES },
  { service: 'dashboard', path: '/api/v1/dashboards', auth: 'jwt' },
  // A share link is its own credential (a signed, revocable token in the path).
  { service: 'dashboard', path: '/api/v1/shared-dashboards', methods: ['GET', 'HEAD'], auth: 'public', ipLimit: 'shared-dashboard' },
  // A dashboard frame reads its files with a view token: the viewer's session, scoped to one dashboard.
  { service: 'dashboard', path: VIEW_TOKEN_PATH, methods: ['GET', 'HEAD'], auth: 'view-token' },
  { service: 'ssh', path: '/api/v1/ssh/targets', auth: 'jwt' },
];

function matches(rule: RouteRule, method: string, path: string): boolean {
  if (rule.methods && !rule.methods.includes(method)) return false;
  if (rule.exact) return path === rule.path || path === `${rule.path}/`;
  return path === rule.path || path.startsWith(`${rule.path}/`);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request may change its caller's own account (and so its principal): any signed-in write to identity. */
export function mayChangeCaller(rule: RouteRule, method: string): boolean {
  return rule.service === 'identity' && rule.auth !== 'public' && !SAFE_METHODS.has(method);
}

/** The rule of a path served to pages of any origin (`cors`), whatever the method; undefined for every other path. */
export function corsRuleOf(path: string, routes: RouteRule[] = ROUTES): RouteRule | undefined {
  return routes.find((rule) => rule.cors && matches({ ...rule, methods: undefined }, 'OPTIONS', path));
}

/** First matching rule, most specific first as listed. */
export function findRoute(method: string, path: string, routes: RouteRule[] = ROUTES): RouteRule | undefined {
  return routes.find((rule) => matches(rule, method, path));
}
