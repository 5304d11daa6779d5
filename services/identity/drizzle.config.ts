import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['identity'],
  migrations: { schema: 'identity', table: '__drizzle_migrations' },
});
