import cors from 'cors';
import express, { type Request, type RequestHandler } from 'express';
import { DEFAULT_PUBLIC_URL, mcpResourceOf, oauthIssuerOf } from '@svc/auth';
import { DEFAULT_DASHBOARD_ORIGIN } from '@svc/dashboard';
import type { Bus } from '@svc/bus';
import { trackedReads, type Cache } from '@svc/cache';
import { SVC_VERSION } from '@svc/contracts';
import { correlationMiddleware, errorHandler, JSON_BODY_LIMIT_BYTES, MethodNotAllowedError, NotFoundError, PayloadTooLargeError, type Logger } from '@svc/core';
import { httpMetrics } from '@svc/metrics';
import { httpTracing } from '@svc/tracing';
import { ApiKeyUsage } from './auth/api-key-usage.js';
import { authenticator, createPassport } from './auth/authenticate.js';
import { PrincipalResolver } from './auth/principal-resolver.js';
import { viewTokenAuthentication } from './auth/view-token.js';
import { cliLoginRoutes } from './http/cli-login.routes.js';
import { builtCliPackage, cliPackageRoutes } from './http/cli-package.routes.js';
import { builtConsole, consoleFrameRoutes, consoleRoutes } from './http/console.routes.js';
import { apiOriginFileHeaders, dashboardOriginFileHeaders, isDashboardFile } from './http/dashboard-files.js';
import { healthRoutes, type HealthChecks } from './http/health.routes.js';
import { createIdentitySigner } from './http/identity-signer.js';
import { handTo } from './http/hand-over.js';
import { forwardTo, type Forwarder } from './http/proxy.js';
import type { CommandGroupLimit } from './http/limits.js';
import { createRequestLimits } from './http/request-limits.js';
import { apiSecurityHeaders, dashboardOriginSecurityHeaders } from './http/security-headers.js';
import { documentedMethods } from './openapi/allowed-methods.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { docsRoutes } from './openapi/docs.routes.js';
import { corsRuleOf, findRoute, mayChangeCaller, type AuthPolicy, type RouteRule, type ServiceName } from './routing/route-table.js';
import type { TrustProxy } from './env.js';

export interface GatewayConfig {
  jwtSecret: string;
  internalSecret: string;
  services: Record<ServiceName, string>;
  rateLimitEnabled: boolean;
  rateLimitStorage: 'redis' | 'memory';
  /** `RATE_LIMIT_REQUESTS` per `RATE_LIMIT_WINDOW`: the per-user limit of `/api/v1/commands/*`. */
  commandGroupLimit: CommandGroupLimit;
  /** Whose `X-Forwarded-*` to believe (`SVC_TRUST_PROXY`): off unless the hops are named. */
  trustProxy: TrustProxy;
  version: string;
  /** The CLI package to serve at `/cli/svc-cli.tgz` (`SVC_CLI_PACKAGE`); default: the one the build made. */
  cliPackageFile?: string;
  /** How often API-key usage is reported to identity (default 30 s). */
  apiKeyUsageFlushMs?: number;
  /**
   * SVC_PUBLIC_URL (default `http://localhost:8080`): the issuer OAuth access tokens must name,
   * and `<url>/mcp` the resource they must be for.
   */
  publicUrl?: string;
  /** The built web console to serve at `/` (`SVC_CONSOLE_DIR`); default: the one `npm run build` made in `console/dist`, if any. */
  consoleDir?: string;
  /**
   * The dashboard origin as browsers reach it (`SVC_DASHBOARD_ORIGIN`): the one origin the
   * console's pages may frame. Unset: they frame nothing.
   */
  dashboardOrigin?: string;
}

export interface GatewayDeps {
  cache: Cache;
  bus: Bus;
  log: Logger;
  health: HealthChecks;
  config: GatewayConfig;
  /** Services running in this process (the standalone): their requests are handed over, not proxied. */
  inProcess?: Partial<Record<ServiceName, RequestHandler>>;
}

declare module 'express-serve-static-core' {
  interface Locals {
    route?: RouteRule;
  }
}

export interface Gateway {
  /** The API origin: everything the route table lists, `/health`, `/openapi.json`, `/docs`, `/cli/login`, `/cli/svc-cli.tgz`, the web console. */
  app: express.Express;
  /**
   * The dashboard origin (a second listener, `SVC_DASHBOARD_ORIGIN_PORT`): bundle files only,
   * by JWT, share link or view token, forwarded to the dashboard service like the API's.
   */
  dashboardApp: express.Express;
  /** Reports pending API-key usage; call after the HTTP server stopped accepting. */
  stop(): Promise<void>;
}

/**
 * Principals this replica keeps in memory while Redis vouches for them (see PrincipalResolver):
 * a few hundred bytes each. Redis reports every change and expiry; the TTL only bounds how long
 * an entry nobody changes may stay.
 */
const PRINCIPAL_READS = { maxEntries: 10_000, ttlSeconds: 60, name: 'svc-gateway-principals' };

const noRoute = (req: Request) => new NotFoundError(`No route for ${req.method} ${req.path}`, { method: req.method, path: req.path });

/**
 * The answer to a browser's preflight for a path pages of any origin may call (`cors` rules):
 * its methods, no credentials, the headers MCP clients send. The answers themselves carry
 * `Access-Control-Allow-Origin: *` from the service (the MCP SDK's handlers).
 */
const preflights = new Map<RouteRule, RequestHandler>();
function preflight(rule: RouteRule): RequestHandler {
  let handler = preflights.get(rule);
  if (!handler) {
    handler = cors({ origin: '*', methods: rule.methods, allowedHeaders: ['Content-Type', 'MCP-Protocol-Version'], maxAge: 600 });
    preflights.set(rule, handler);
  }
  return handler;
}

/**
 * `router` for requests outside `prefix`, where all its routes are: the API's requests, nearly all
 * of them, skip the pages' routers rather than match their path against each page's (BENCHMARKS.md,
 * twelfth round). Its routes stay listed (`stack`), as a router's are, for the route check.
 */
function outside(prefix: string, router: express.Router): RequestHandler & Pick<express.Router, 'stack'> {
  const handler: RequestHandler = (req, res, next) => (req.path.startsWith(prefix) ? next() : router(req, res, next));
  return Object.assign(handler, { stack: router.stack });
}

/** An express app of the gateway's: no `X-Powered-By`, trusted hops as configured, a correlation id on every answer. */
function gatewayApp(trustProxy: TrustProxy): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.use(correlationMiddleware());
  return app;
}

/** The public door: routes, authenticates, limits and forwards; owns no business rules. */
export function createGateway({ cache, bus, log, health, config, inProcess = {} }: GatewayDeps): Gateway {
  const app = gatewayApp(config.trustProxy);
  // Labelled by the route table's rule (its path prefix), never by the concrete path.
  const routeOf = (_req: Request, res: express.Response) => res.locals.route?.path ?? 'unmatched';
  app.use(httpMetrics('gateway', routeOf));
  // The root of every trace: a client's traceparent is not taken up (httpTracing, continueTrace).
  app.use(httpTracing({ routeOf, continueTrace: false }));
  app.use(apiSecurityHeaders());
  const document = buildOpenApiDocument();
  const consoleDir = config.consoleDir ?? builtConsole();
  const pages = express.Router();
  pages.use(healthRoutes(health, config.version));
  pages.use(docsRoutes(document));
  pages.use(cliLoginRoutes());
  pages.use(cliPackageRoutes(config.cliPackageFile ?? builtCliPackage(), config.version));
  pages.use(consoleRoutes(consoleDir, { dashboardOrigin: config.dashboardOrigin }));
  app.use(outside('/api/', pages));
  const allowedMethods = documentedMethods(document);

  const route: RequestHandler = (req, res, next) => {
    // No cross-origin use is served (the console will be same-origin) but MCP clients' OAuth
    // calls: a preflight is refused in the error format, naming the methods the path has.
    if (req.method === 'OPTIONS') {
      const cors = corsRuleOf(req.path);
      if (cors) return preflight(cors)(req, res, next);
      const allowed = allowedMethods(req.path);
      if (!allowed) return next(noRoute(req));
      res.setHeader('Allow', allowed.join(', '));
      return next(new MethodNotAllowedError(`OPTIONS is not served; ${req.path} answers ${allowed.join(', ')}`, { method: req.method, allowed }));
    }
    const rule = findRoute(req.method, req.path);
    if (!rule) return next(noRoute(req));
    const length = Number(req.headers['content-length'] ?? 0);
    const limit = rule.bodyLimit ?? JSON_BODY_LIMIT_BYTES;
    if (length > limit) {
      return next(new PayloadTooLargeError(`Request body exceeds ${limit} bytes`, { limit_bytes: limit }));
    }
    res.locals.route = rule;
    next();
  };
  // The dashboard origin answers bundle files and nothing else of the API.
  const routeFile: RequestHandler = (req, res, next) => (isDashboardFile(req.method, req.path) ? route(req, res, next) : next(noRoute(req)));

  const { perClientIp: ipLimits, perUser: userLimits, beforeCaller } = createRequestLimits({
    enabled: config.rateLimitEnabled,
    cache,
    storage: config.rateLimitStorage,
    commandGroup: config.commandGroupLimit,
  });

  const usage = new ApiKeyUsage(bus, log, config.apiKeyUsageFlushMs);
  const principals = trackedReads(cache, PRINCIPAL_READS);
  const resolver = new PrincipalResolver(principals, bus, log, config.internalSecret);
  const publicUrl = config.publicUrl ?? DEFAULT_PUBLIC_URL;
  const oauth = { issuer: oauthIssuerOf(publicUrl), resource: mcpResourceOf(publicUrl) };
  const policies = authenticator(createPassport(config.jwtSecret, resolver, oauth), usage, oauth);
  const byPolicy: Record<AuthPolicy, RequestHandler> = {
    public: policies('public'),
    jwt: policies('jwt'),
    'jwt-or-key': policies('jwt-or-key'),
    'key-or-oauth': policies('key-or-oauth'),
    'view-token': viewTokenAuthentication(config.internalSecret, resolver),
  };
  const authenticate: RequestHandler = (req, res, next) => byPolicy[res.locals.route!.auth](req, res, next);
  // A caller's next request sees the change it just made to its account, whether or not Redis's
  // notice of it has been read by then ('close' comes before this process reads anything more).
  const rereadAfterChange: RequestHandler = (req, res, next) => {
    const { identity } = req;
    if (identity && mayChangeCaller(res.locals.route!, req.method)) res.once('close', () => resolver.forgetCopyOf(identity));
    next();
  };

  const sign = createIdentitySigner(config.internalSecret);
  const forwarders: Forwarder[] = [];
  const toService = Object.fromEntries(
    (Object.entries(config.services) as [ServiceName, string][]).map(([name, target]) => {
      const local = inProcess[name];
      if (local) return [name, handTo(local, sign)];
      const forwarder = forwardTo(name, target, sign, log);
      forwarders.push(forwarder);
      return [name, forwarder.handle];
    }),
  ) as Record<ServiceName, RequestHandler>;
  const forward: RequestHandler = (req, res, next) => toService[res.locals.route!.service](req, res, next);

  app.use(route, apiOriginFileHeaders(), ipLimits, authenticate, rereadAfterChange, userLimits, forward);
  app.use(beforeCaller);
  app.use(errorHandler(log));

  const dashboardApp = gatewayApp(config.trustProxy);
  dashboardApp.use(dashboardOriginSecurityHeaders());
  dashboardApp.use(consoleFrameRoutes(consoleDir, config.dashboardOrigin));
  dashboardApp.use(routeFile, dashboardOriginFileHeaders(), ipLimits, authenticate, userLimits, forward);
  dashboardApp.use(beforeCaller);
  dashboardApp.use(errorHandler(log));
  return {
    app,
    dashboardApp,
    async stop() {
      await usage.stop();
      await principals.close();
      await Promise.all(forwarders.map((forwarder) => forwarder.close()));
    },
  };
}

export function gatewayConfigFromEnv(env: {
  SVC_JWT_SECRET: string;
  SVC_INTERNAL_SECRET: string;
  SVC_IDENTITY_URL: string;
  SVC_EXECUTION_URL: string;
  SVC_REGISTRY_URL: string;
  SVC_STORAGE_URL: string;
  SVC_ADMIN_URL: string;
  SVC_BILLING_URL: string;
  SVC_NOTIFY_URL: string;
  SVC_DASHBOARD_URL: string;
  SVC_SSH_URL: string;
  RATE_LIMIT_ENABLED: boolean;
  RATE_LIMIT_STORAGE?: 'redis' | 'memory';
  RATE_LIMIT_REQUESTS: number;
  RATE_LIMIT_WINDOW: number;
  REDIS_URL?: string;
  SVC_TRUST_PROXY: TrustProxy;
  SVC_CLI_PACKAGE?: string;
  SVC_CONSOLE_DIR?: string;
  SVC_PUBLIC_URL: string;
  SVC_DASHBOARD_ORIGIN?: string | null;
  SVC_DASHBOARD_ORIGIN_PORT?: number | 'off';
}): GatewayConfig {
  const oneOrigin = env.SVC_DASHBOARD_ORIGIN === null || env.SVC_DASHBOARD_ORIGIN_PORT === 'off';
  return {
    jwtSecret: env.SVC_JWT_SECRET,
    internalSecret: env.SVC_INTERNAL_SECRET,
    services: { identity: env.SVC_IDENTITY_URL, registry: env.SVC_REGISTRY_URL, execution: env.SVC_EXECUTION_URL, storage: env.SVC_STORAGE_URL, admin: env.SVC_ADMIN_URL, billing: env.SVC_BILLING_URL, notify: env.SVC_NOTIFY_URL, dashboard: env.SVC_DASHBOARD_URL, ssh: env.SVC_SSH_URL },
    rateLimitEnabled: env.RATE_LIMIT_ENABLED,
    rateLimitStorage: env.RATE_LIMIT_STORAGE ?? (env.REDIS_URL ? 'redis' : 'memory'),
    commandGroupLimit: { points: env.RATE_LIMIT_REQUESTS, durationSeconds: env.RATE_LIMIT_WINDOW },
    trustProxy: env.SVC_TRUST_PROXY,
    version: SVC_VERSION,
    cliPackageFile: env.SVC_CLI_PACKAGE,
    consoleDir: env.SVC_CONSOLE_DIR,
    publicUrl: env.SVC_PUBLIC_URL,
    dashboardOrigin: oneOrigin ? undefined : (env.SVC_DASHBOARD_ORIGIN ?? DEFAULT_DASHBOARD_ORIGIN),
  };
}

export { fleetHealthChecks } from './http/fleet-health.js';
export { dashboardListenerEnv, dashboardListenerPort, DEFAULT_DASHBOARD_ORIGIN_PORT, GatewayEnv, loadGatewayEnv, rateLimitEnv, TrustProxySetting, type TrustProxy } from './env.js';
export { DEFAULT_COMMAND_GROUP_LIMIT, type CommandGroupLimit } from './http/limits.js';
export type { ServiceName, AuthPolicy, RouteRule } from './routing/route-table.js';
export { buildOpenApiDocument, OPENAPI_FRAGMENTS } from './openapi/document.js';

