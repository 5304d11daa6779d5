import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['execution'],
  migrations: { schema: 'execution', table: '__drizzle_migrations' },
});
