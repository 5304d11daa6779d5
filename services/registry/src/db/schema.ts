import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { outboxTable } from '@svc/db';
import type { CommandAnnotations, CommandExample, CommandUi } from '@svc/pack-sdk';

export const registry = pgSchema('registry');

/** The registry's events, written with the change they announce (see `@svc/db`, "The outbox"). */
export const outbox = outboxTable(registry);

const VISIBILITY = ['public', 'unlisted', 'private', 'organization'] as const;
const QUEUE = ['fast', 'medium', 'long'] as const;
const createdAt = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/**
 * A pack: `@namespace/name`, owned by the tenant whose slug is the namespace. It exists from
 * its first published version; `active_version_id` is the installed version (null until the
 * first install).
 */
export const packs = registry.table(
  'packs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    ownerTenantId: uuid('owner_tenant_id').notNull(),
    activeVersionId: uuid('active_version_id').references((): AnyPgColumn => packVersions.id, { onDelete: 'set null' }),
    installedAt: timestamp('installed_at', { withTimezone: true }),
    installedBy: uuid('installed_by'),
    createdAt: createdAt('created_at'),
  },
  (t) => [unique('packs_namespace_name_unique').on(t.namespace, t.name), index('packs_owner_idx').on(t.ownerTenantId)],
);

/** A published version; immutable once written. Its package is the blob `blob_key`. */
export const packVersions = registry.table(
  'pack_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    description: text('description').notNull(),
    visibility: text('visibility', { enum: VISIBILITY }).notNull(),
    manifest: jsonb('manifest').notNull().$type<Record<string, unknown>>(),
    blobKey: text('blob_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** Ed25519 public key (DER, base64) and signature of the package, when it was published signed; verified at publish. */
    signaturePublicKey: text('signature_public_key'),
    signature: text('signature'),
    publishedBy: uuid('published_by').notNull(),
    publishedAt: createdAt('published_at'),
  },
  (t) => [unique('pack_versions_pack_version_unique').on(t.packId, t.version)],
);

/**
 * The commands of each version. Those of a pack's active version have `active` set, and the
 * partial unique index keeps a command name unique within its namespace across active packs.
 */
export const commands = registry.table(
  'commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id, { onDelete: 'cascade' }),
    packVersionId: uuid('pack_version_id')
      .notNull()
      .references(() => packVersions.id, { onDelete: 'cascade' }),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    entry: text('entry').notNull(),
    inputSchema: jsonb('input_schema').notNull().$type<Record<string, unknown>>(),
    /** JSON Schema of the result (`output_schema` in pack.yaml), null when the command declares none. */
    outputSchema: jsonb('output_schema').$type<Record<string, unknown>>(),
    /** Hints for agents (`annotations` in pack.yaml), passed through to the MCP tool. */
    annotations: jsonb('annotations').notNull().default({}).$type<CommandAnnotations>(),
    /** The dashboard that is the command's UI (`ui` in pack.yaml), offered to MCP Apps hosts; null for none. */
    ui: jsonb('ui').$type<CommandUi>(),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    retries: integer('retries').notNull(),
    queue: text('queue', { enum: QUEUE }).notNull(),
    tags: jsonb('tags').notNull().$type<string[]>(),
    examples: jsonb('examples').notNull().$type<CommandExample[]>(),
    active: boolean('active').notNull().default(false),
  },
  (t) => [
    unique('commands_version_name_unique').on(t.packVersionId, t.name),
    uniqueIndex('commands_active_name_idx').on(t.namespace, t.name).where(sql`${t.active}`),
    index('commands_pack_idx').on(t.packId),
  ],
);

/** Tenants allowed to see a pack whose visibility is `organization`. */
export const grants = registry.table(
  'grants',
  {
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id, { onDelete: 'cascade' }),
    granteeTenantId: uuid('grantee_tenant_id').notNull(),
    grantedBy: uuid('granted_by').notNull(),
    createdAt: createdAt('created_at'),
  },
  (t) => [primaryKey({ columns: [t.packId, t.granteeTenantId] }), index('grants_grantee_idx').on(t.granteeTenantId)],
);

/**
 * A tenant's installation of a pack: what `GET /packs` lists and MCP `?tools=installed` offers.
 * `pinned_version_id` null follows the pack's active version; set, the tenant's runs use that
 * version. The owning tenant's row (made when a member releases a version) always follows.
 */
export const installations = registry.table(
  'installations',
  {
    tenantId: uuid('tenant_id').notNull(),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id, { onDelete: 'cascade' }),
    pinnedVersionId: uuid('pinned_version_id').references(() => packVersions.id, { onDelete: 'cascade' }),
    installedBy: uuid('installed_by').notNull(),
    installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.packId] }), index('installations_pack_idx').on(t.packId)],
);
