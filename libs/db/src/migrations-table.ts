// A module of its own, without imports: every test file's set-up loads the fresh cluster's code,
// which names the table too, and must not load drizzle and @svc/core with it.

/** The journal drizzle's migrator keeps in each service's schema, under both drivers. */
export const MIGRATIONS_TABLE = '__drizzle_migrations';
