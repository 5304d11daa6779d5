import { customType, integer, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const ssh = pgSchema('ssh');

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * SSH targets of each tenant. The credential of `auth_method` is sealed with AES-256-GCM
 * (`private_key_encrypted` or `password_encrypted`: nonce, tag, ciphertext, authenticated
 * together with the tenant and the target id) under the key `key_id` names, so that keys can be
 * rotated (see the README). `known_hosts` is the one trusted host-key line; without it the
 * target is only verified, never used by packs.
 */
export const targets = ssh.table(
  'targets',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    name: text('name').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    username: text('username').notNull(),
    authMethod: text('auth_method').notNull().$type<'key' | 'password'>(),
    keyId: text('key_id').notNull(),
    privateKeyEncrypted: bytea('private_key_encrypted'),
    passwordEncrypted: bytea('password_encrypted'),
    knownHosts: text('known_hosts'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [uniqueIndex('targets_tenant_name_idx').on(t.tenantId, t.name)],
);
