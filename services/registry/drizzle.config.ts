import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['registry'],
  migrations: { schema: 'registry', table: '__drizzle_migrations' },
});
