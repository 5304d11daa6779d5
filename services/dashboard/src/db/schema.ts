import { sql } from 'drizzle-orm';
import { outboxTable } from '@svc/db';
import { bigint, boolean, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const dashboard = pgSchema('dashboard');

/** `dashboard.deleted` events, written in the deleting transaction (see `@svc/db`, "The outbox"). */
export const outbox = outboxTable(dashboard);

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One row per dashboard. `scope` is kept with its `@` (the spec's storage form) and answered
 * without it; `slug` is the name, unique across the platform, so `GET /dashboards/{slug}` names
 * one dashboard.
 */
export const dashboards = dashboard.table(
  'dashboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerTenantId: uuid('owner_tenant_id').notNull(),
    scope: text('scope').notNull(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    category: text('category'),
    visibility: text('visibility', { enum: ['public', 'unlisted', 'organization', 'private'] }).notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dashboards_scope_name_unique').on(t.scope, t.name), uniqueIndex('dashboards_slug_unique').on(t.slug), index('dashboards_owner_idx').on(t.ownerTenantId)],
);

/** Uploaded versions; one active per dashboard, the one `GET` describes. */
export const versions = dashboard.table(
  'versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    entryPoint: text('entry_point').notNull(),
    minSdkVersion: text('min_sdk_version').notNull(),
    packDependencies: jsonb('pack_dependencies').notNull().$type<Array<{ scope: string; name: string; version: string }>>(),
    bundleSizeBytes: bigint('bundle_size_bytes', { mode: 'number' }).notNull(),
    isActive: boolean('is_active').notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('versions_dashboard_version_unique').on(t.dashboardId, t.version),
    uniqueIndex('versions_one_active').on(t.dashboardId).where(sql`${t.isActive}`),
  ],
);

/** The files of a version, as extracted: what may be served, with the size and hash its `ETag` is made of. */
export const files = dashboard.table(
  'files',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => versions.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.path] })],
);

/** Tenants an organization-visibility dashboard is granted to. */
export const grants = dashboard.table(
  'grants',
  {
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.dashboardId, t.tenantId] }), index('grants_tenant_idx').on(t.tenantId)],
);

/** Share links: a signed token names the row; deleting the row revokes the link. */
export const shares = dashboard.table(
  'shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    expiresAt: timestamptz('expires_at'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('shares_dashboard_idx').on(t.dashboardId)],
);
