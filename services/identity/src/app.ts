import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { DEFAULT_PUBLIC_URL, mcpResourceOf, oauthIssuerOf } from '@svc/auth';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { FLEET_PING_RPC } from '@svc/contracts';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { inbox, outbox } from './db/schema.js';
import { consumeApiKeyUse } from './events/api-key.consumer.js';
import { respondToAccessCodeRequests } from './events/access-code.responder.js';
import { consumePackEvents } from './events/pack.consumer.js';
import { respondToOperatorRequests } from './events/operator.responder.js';
import { respondToPrincipalRequests, respondToUserPrincipalRequests } from './events/principal.responder.js';
import { consumeSubscriptionChanges } from './events/subscription.consumer.js';
import { respondToTenantRequests } from './events/tenant.responder.js';
import { accountRoutes } from './http/account.routes.js';
import { authorizationRoutes } from './http/authorization.routes.js';
import { oauthRoutes } from './http/oauth.routes.js';
import { namespaceRoutes } from './http/namespace.routes.js';
import { organizationRoutes } from './http/organization.routes.js';
import { accessCodeRoutes } from './http/access-code.routes.js';
import { authRoutes } from './http/auth.routes.js';
import { passwordResetRoutes } from './http/password-reset.routes.js';
import { userRoutes } from './http/user.routes.js';
import { AccessCodeService } from './services/access-code.service.js';
import { AccountService } from './services/account.service.js';
import { ApiKeyService } from './services/api-key.service.js';
import { OrganizationService } from './services/organization.service.js';
import { AuthService } from './services/auth.service.js';
import { AuthorizationService } from './services/authorization.service.js';
import { ClientDocuments, type ClientDocumentOptions } from './services/client-document.js';
import { OAuthClientService } from './services/oauth-client.service.js';
import { OAuthConsentService } from './services/oauth-consent.service.js';
import { OAuthService } from './services/oauth.service.js';
import { ensureAdmin, type AdminBootstrap } from './services/bootstrap.service.js';
import { bcryptHasher } from './services/password.js';
import { PasswordResetService } from './services/password-reset.service.js';
import { PrincipalService } from './services/principal.service.js';
import { RoleService } from './services/role.service.js';
import { TierService } from './services/tier.service.js';

export const IDENTITY_SCHEMA = 'identity';
export const IDENTITY_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface IdentityConfig {
  jwtSecret: string;
  /** SVC_INTERNAL_SECRET: the principals identity caches for the gateway are signed with it. */
  internalSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  bcryptRounds: number;
  cookieSecure: boolean;
  admin?: AdminBootstrap;
  /**
   * SVC_PUBLIC_URL: where clients reach the platform (default `http://localhost:8080`). The
   * OAuth authorization server's issuer, and the MCP resource (`<url>/mcp`) its tokens are for.
   */
  publicUrl?: string;
  /** How client ID metadata documents are fetched: private ranges allowed, extra trusted certificates. */
  clientDocuments?: ClientDocumentOptions;
  /** SVC_PASSWORD_RESET_TTL: how long a password reset link works (default an hour). */
  passwordResetTtlSeconds?: number;
  /** Now, for the expiry of password reset links (a test moves it; default the system's). */
  clock?: () => Date;
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
}

export const DEFAULT_PASSWORD_RESET_TTL_SECONDS = 3600;

export interface IdentityDeps {
  database: Database;
  cache: Cache;
  bus: Bus;
  log: Logger;
  config: IdentityConfig;
}

export interface IdentityService {
  routes: Router[];
  /** The OAuth authorization server and its metadata, outside `/api/v1`. */
  rootRoutes: Router[];
  /** Migrates, bootstraps the admin, starts answering bus requests and relaying the outbox. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createIdentityService({ database, cache, bus, log, config }: IdentityDeps): IdentityService {
  const db = database.db;
  const hasher = bcryptHasher(config.bcryptRounds);
  const principals = new PrincipalService(db, cache, log, config.internalSecret);
  const events = new EventOutbox({ db, table: outbox, inbox, bus, log });
  const auth = new AuthService({ db, events, hasher, principals, settings: config, log });
  const codes = new AccessCodeService(db, config.internalSecret);
  const organizations = new OrganizationService(db, principals, events);
  const accounts = new AccountService(db, organizations, principals, events);
  const apiKeys = new ApiKeyService(db, principals);
  const tiers = new TierService(events, principals, log);
  const publicUrl = config.publicUrl ?? DEFAULT_PUBLIC_URL;
  const oauth = new OAuthService(
    db,
    principals,
    {
      tokens: { secret: config.jwtSecret, issuer: oauthIssuerOf(publicUrl), audience: mcpResourceOf(publicUrl) },
      accessTtlSeconds: config.accessTtlSeconds,
      refreshTtlSeconds: config.refreshTtlSeconds,
    },
    log,
  );
  const clients = new OAuthClientService(db, new ClientDocuments(cache, log, config.clientDocuments));
  const consent = new OAuthConsentService(auth, principals, oauth, config.internalSecret);
  const resets = new PasswordResetService({
    db,
    events,
    cache,
    auth,
    oauth,
    log,
    settings: { publicUrl, ttlSeconds: config.passwordResetTtlSeconds ?? DEFAULT_PASSWORD_RESET_TTL_SECONDS, clock: config.clock ?? (() => new Date()) },
  });
  const subscriptions: Subscription[] = [];

  return {
    routes: [
      authRoutes(auth, db, { secure: config.cookieSecure, maxAgeSeconds: config.refreshTtlSeconds }),
      passwordResetRoutes(resets),
      userRoutes(db, new RoleService(db, principals)),
      accessCodeRoutes(codes),
      accountRoutes(accounts, apiKeys),
      organizationRoutes(organizations, principals),
      namespaceRoutes(db),
      authorizationRoutes(new AuthorizationService(db, oauth)),
    ],
    rootRoutes: [oauthRoutes({ oauth, consent, clients, cookieSecure: config.cookieSecure })],
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
      if (config.admin) await ensureAdmin(db, events, hasher, principals, config.admin, log);
      subscriptions.push(await respondToPrincipalRequests(bus, principals));
      subscriptions.push(await respondToUserPrincipalRequests(bus, principals));
      subscriptions.push(await respondToTenantRequests(bus, db));
      subscriptions.push(await bus.respond(FLEET_PING_RPC, async () => ({ service: 'identity' })));
      subscriptions.push(await consumePackEvents(bus, db));
      subscriptions.push(await consumeApiKeyUse(bus, apiKeys));
      subscriptions.push(await consumeSubscriptionChanges(bus, events, tiers));
      subscriptions.push(...(await respondToAccessCodeRequests(bus, codes)));
      subscriptions.push(...(await respondToOperatorRequests(bus, tiers, auth)));
      events.start();
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await resets.stop();
      await events.stop();
    },
  };
}

export function identityConfigFromEnv(env: {
  SVC_JWT_SECRET: string;
  SVC_INTERNAL_SECRET: string;
  SVC_ACCESS_TOKEN_TTL: number;
  SVC_REFRESH_TOKEN_TTL: number;
  SVC_BCRYPT_ROUNDS: number;
  SVC_COOKIE_SECURE: boolean;
  SVC_ADMIN_EMAIL?: string;
  SVC_ADMIN_PASSWORD?: string;
  SVC_ADMIN_SLUG: string;
  SVC_PUBLIC_URL?: string;
  SVC_OAUTH_CLIENT_ALLOWED_CIDRS: string[];
  SVC_OAUTH_CLIENT_CA_FILE?: string;
  SVC_PASSWORD_RESET_TTL: number;
}): IdentityConfig {
  return {
    jwtSecret: env.SVC_JWT_SECRET,
    internalSecret: env.SVC_INTERNAL_SECRET,
    accessTtlSeconds: env.SVC_ACCESS_TOKEN_TTL,
    refreshTtlSeconds: env.SVC_REFRESH_TOKEN_TTL,
    bcryptRounds: env.SVC_BCRYPT_ROUNDS,
    cookieSecure: env.SVC_COOKIE_SECURE,
    admin: env.SVC_ADMIN_EMAIL && env.SVC_ADMIN_PASSWORD ? { email: env.SVC_ADMIN_EMAIL, password: env.SVC_ADMIN_PASSWORD, slug: env.SVC_ADMIN_SLUG } : undefined,
    publicUrl: env.SVC_PUBLIC_URL,
    passwordResetTtlSeconds: env.SVC_PASSWORD_RESET_TTL,
    clientDocuments: { allowedCidrs: env.SVC_OAUTH_CLIENT_ALLOWED_CIDRS, ca: env.SVC_OAUTH_CLIENT_CA_FILE ? readFileSync(env.SVC_OAUTH_CLIENT_CA_FILE, 'utf8') : undefined },
  };
}

export { IdentityEnv, loadIdentityEnv } from './env.js';
