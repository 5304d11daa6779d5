import { boolean, index, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
  code: text('code').notNull().unique(),
  tier: text('tier', { enum: ['free', 'developer_preview', 'pro', 'enterprise'] }).notNull(),
  cohort: text('cohort').notNull(),
  maxUses: integer('max_uses').notNull(),
  useCount: integer('use_count').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  redeemedBy: uuid('redeemed_by'),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
});

/** Messages to send, written in the same transaction as the change that caused them. */
export const outbox = identity.table('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind', { enum: ['email'] }).notNull(),
  recipient: text('recipient').notNull(),
  template: text('template').notNull(),
  payload: jsonb('payload').notNull().$type<Record<string, unknown>>(),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});
