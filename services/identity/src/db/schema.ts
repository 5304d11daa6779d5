import { inboxTable, outboxTable } from '@svc/db';
import { boolean, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const identity = pgSchema('identity');

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A personal tenant per user; organizations are tenants too. Slugs are unique across both. */
export const tenants = identity.table('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  kind: text('kind', { enum: ['personal', 'organization'] }).notNull(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const users = identity.table('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  name: text('name').notNull().default(''),
  role: text('role', { enum: ['owner', 'admin', 'member'] }).notNull().default('member'),
  developerMode: boolean('developer_mode').notNull().default(false),
  subscriptionTier: text('subscription_tier', { enum: ['free', 'developer_preview', 'pro', 'enterprise'] }).notNull(),
  personalTenantId: uuid('personal_tenant_id')
    .notNull()
    .references(() => tenants.id),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per refresh token. Rotation adds a row to the same family and marks the old one
 * used; presenting a used token again revokes the whole family. The family id is the `sid`
 * of the access tokens it issues.
 */
export const refreshSessions = identity.table(
  'refresh_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_sessions_family_idx').on(t.familyId), index('refresh_sessions_user_idx').on(t.userId)],
);

export const accessCodes = identity.table('access_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The literal, kept so that the admin list can show it; null for comp codes, whose literal is answered once and kept only as `code_digest`. */
  code: text('code').unique(),
  /** HMAC-SHA-256 of the literal under SVC_INTERNAL_SECRET (`codeDigest`): how a code is found. Null for codes older than it. */
  codeDigest: text('code_digest').unique(),
  /** The idempotency key of the `identity.access-code.mint` request that minted it, when it had one. */
  mintKey: text('mint_key').unique(),
  tier: text('tier', { enum: ['free', 'developer_preview', 'pro', 'enterprise'] }).notNull(),
  cohort: text('cohort').notNull(),
  maxUses: integer('max_uses').notNull(),
  useCount: integer('use_count').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  redeemedBy: uuid('redeemed_by'),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
  /** Who asked for it: an operator (`standard`, `comp`) or a paid registration (`registration`). */
  kind: text('kind', { enum: ['standard', 'comp', 'registration'] }).notNull().default('standard'),
  /** After this the code no longer validates or redeems; null: never. */
  expiresAt: timestamp('expires_at', { withTimezone: true }),
});

/**
 * What identity must send, written in the same transaction as the change that causes it: its
 * events (`user.registered`, `password.changed`) and its e-mails (kind `email`, `name` the
 * template, `payload` `{to, data}`). See "The outbox" in `@svc/db`.
 */
export const outbox = outboxTable(identity);

/** Events identity has handled, by id: a second delivery of one is not applied again. */
export const inbox = inboxTable(identity);

/** Membership of an organization tenant; a personal tenant's only member is its user. */
export const organizationMembers = identity.table(
  'organization_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member'] }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('organization_members_user_idx').on(t.userId), uniqueIndex('organization_members_org_user_idx').on(t.organizationId, t.userId)],
);

/** An invitation to join an organization: bound to one e-mail, usable once, until it expires. */
export const invites = identity.table('invites', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  role: text('role', { enum: ['admin', 'member'] }).notNull(),
  invitedBy: uuid('invited_by').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  acceptedBy: uuid('accepted_by'),
  createdAt: createdAt(),
});

/** API keys: only a SHA-256 digest of the secret is kept. */
export const apiKeys = identity.table(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);

/** Which tenant owns which installed pack: the read model behind an organization's packs_count. */
export const tenantPacks = identity.table(
  'tenant_packs',
  {
    packId: text('pack_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.packId] }), index('tenant_packs_tenant_idx').on(t.tenantId)],
);

/**
 * The `occurred_at` of the last `subscription.changed` applied to each user: billing's events
 * carry the whole state, so one arriving late (older than this) changes nothing.
 */
export const billingTiers = identity.table('billing_tiers', {
  userId: uuid('user_id').primaryKey(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
});

/**
 * MCP clients registered dynamically (RFC 7591), public clients only (PKCE is their proof): the
 * metadata they registered, as the authorization server answered it. Clients identified by an
 * https URL (a client ID metadata document) are not kept here: their document is fetched.
 */
export const oauthClients = identity.table('oauth_clients', {
  clientId: text('client_id').primaryKey(),
  /** `redirect_uris`, `client_name`, `client_uri`, `grant_types`, … as registered. */
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

/**
 * What an authorization code and the grant it is exchanged for both say: who approved which
 * client (and under which name, redirect URI) for which tenant, resource and scopes.
 */
const approvalColumns = () => ({
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tenantId: uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  clientId: text('client_id').notNull(),
  /** As the client named itself when the user approved it. */
  clientName: text('client_name').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  scopes: text('scopes').array().notNull(),
  resource: text('resource').notNull(),
});

/**
 * One authorization a user gave a client on the consent page: for one tenant, one resource and
 * its scopes. Its refresh tokens rotate within it, and revoking it ends every token issued under
 * it (access tokens name it as `gid`).
 */
export const oauthGrants = identity.table(
  'oauth_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...approvalColumns(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_grants_user_idx').on(t.userId)],
);

/** Authorization codes (digest only), single use, minutes long; the grant they were exchanged for, once they were. */
export const oauthCodes = identity.table('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  ...approvalColumns(),
  codeChallenge: text('code_challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  grantId: uuid('grant_id'),
  createdAt: createdAt(),
});

/**
 * Password reset links (digest of the token only): one-time, expiring. Setting a password spends
 * every link of the user still outstanding.
 */
export const passwordResets = identity.table(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/** Refresh tokens of a grant (digest only): each used once, the next issued in its place. */
export const oauthRefreshTokens = identity.table(
  'oauth_refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_refresh_tokens_grant_idx').on(t.grantId)],
);
