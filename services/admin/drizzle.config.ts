import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['admin'],
  migrations: { schema: 'admin', table: '__drizzle_migrations' },
});
