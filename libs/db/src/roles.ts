import { randomBytes } from 'node:crypto';

export interface ServiceRoles {
  /** The role the service runs as: it may use its schema's tables, nothing else. */
  runtime: { role: string; url: string };
  /** The role that owns the schema and runs its migrations. */
  migrator: { role: string; url: string };
}

export interface ProvisionOptions {
  /** A superuser (or CREATEROLE) connection to the database the fleet uses. */
  adminUrl: string;
  /** Schemas, one per service (`identity`, `registry`, …); each gets its two roles. */
  schemas: readonly string[];
  /** Prefix of every role name, e.g. `svc_` → `svc_identity`, `svc_identity_migrator`. */
  prefix: string;
  /** A password per role name; random when absent. */
  password?: (role: string) => string;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

function urlFor(adminUrl: string, role: string, password: string): string {
  const url = new URL(adminUrl);
  url.username = encodeURIComponent(role);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/**
 * Creates, for each schema, a runtime role (LOGIN, no superuser, no CREATEDB or CREATEROLE,
 * CONNECT to the database only) and a migrator role (the same, plus CREATE on the database so
 * that its first migration makes its schema, which it then owns). The database's `public`
 * schema is closed to both. A service given the runtime URL as `DATABASE_URL` and the migrator
 * URL as `DATABASE_MIGRATION_URL` migrates as the owner and is then granted the use of its
 * tables (`createDatabase`). Idempotent: existing roles get the new password.
 *
 * @example
 *   const roles = await provisionServiceRoles({ adminUrl, schemas: ['identity', 'storage'], prefix: 'svc_' });
 *   roles.identity.runtime.url; // postgres://svc_identity:…@host/db
 */
export async function provisionServiceRoles(options: ProvisionOptions): Promise<Record<string, ServiceRoles>> {
  // node-postgres is loaded by the first call, not by every process that bundles @svc/db.
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  try {
    const database = quoted((await admin.query<{ db: string }>('select current_database() as db')).rows[0]!.db);
    const roles: Record<string, ServiceRoles> = {};
    const make = async (role: string, canCreate: boolean) => {
      const password = options.password?.(role) ?? randomBytes(24).toString('hex');
      const exists = (await admin.query('select 1 from pg_roles where rolname = $1', [role])).rowCount! > 0;
      await admin.query(`${exists ? 'alter' : 'create'} role ${quoted(role)} with login nosuperuser nocreatedb nocreaterole noinherit password ${literal(password)}`);
      await admin.query(`grant connect on database ${database} to ${quoted(role)}`);
      await admin.query(`${canCreate ? 'grant' : 'revoke'} create on database ${database} ${canCreate ? 'to' : 'from'} ${quoted(role)}`);
      await admin.query(`revoke all on schema public from ${quoted(role)}`);
      return { role, url: urlFor(options.adminUrl, role, password) };
    };
    await admin.query('revoke create on schema public from public');
    for (const schema of options.schemas) {
      roles[schema] = { runtime: await make(`${options.prefix}${schema}`, false), migrator: await make(`${options.prefix}${schema}_migrator`, true) };
    }
    return roles;
  } finally {
    await admin.end();
  }
}

/**
 * Drops what `provisionServiceRoles` made (and everything the roles own in this database):
 * test runs name their roles apart and remove them, since roles belong to the whole server.
 */
export async function dropServiceRoles(adminUrl: string, roles: Record<string, ServiceRoles>): Promise<void> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const { runtime, migrator } of Object.values(roles)) {
      for (const role of [runtime.role, migrator.role]) {
        const exists = (await admin.query('select 1 from pg_roles where rolname = $1', [role])).rowCount! > 0;
        if (!exists) continue;
        await admin.query(`drop owned by ${quoted(role)} cascade`);
        await admin.query(`drop role ${quoted(role)}`);
      }
    }
  } finally {
    await admin.end();
  }
}
