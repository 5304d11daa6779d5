import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrateOptions } from '../database.js';

/**
 * Every service's committed migrations in the repository at `root`, each in the schema named
 * after its folder (`services/<name>/drizzle`, schema `<name>`), as the services apply them.
 */
export function serviceMigrations(root: string): MigrateOptions[] {
  const services = join(root, 'services');
  return readdirSync(services)
    .filter((name) => existsSync(join(services, name, 'drizzle')))
    .map((name) => ({ migrationsFolder: join(services, name, 'drizzle'), schema: name }));
}
