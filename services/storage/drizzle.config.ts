import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['storage'],
  migrations: { schema: 'storage', table: '__drizzle_migrations' },
});
