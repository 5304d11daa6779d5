import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, or `/app` in the image: `src/` and `dist/` are both three folders below it. */
export const APP_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The services that own migrations: each `services/<name>/drizzle` (the image copies every one),
 * whose schema is named like the service.
 */
export function servicesWithMigrations(root = APP_ROOT): string[] {
  return readdirSync(join(root, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'services', entry.name, 'drizzle')))
    .map((entry) => entry.name)
    .sort();
}

export function migrationsFolderOf(service: string, root = APP_ROOT): string {
  return join(root, 'services', service, 'drizzle');
}
