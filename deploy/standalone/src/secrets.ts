import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FleetSecrets {
  SVC_JWT_SECRET: string;
  SVC_INTERNAL_SECRET: string;
}

/**
 * Secrets for a standalone installation that was given none: made once and kept beside the
 * data (mode 0600), so tokens survive a restart just as accounts do.
 */
export function loadOrCreateSecrets(dataDir: string): FleetSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as FleetSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets = { SVC_JWT_SECRET: randomBytes(32).toString('hex'), SVC_INTERNAL_SECRET: randomBytes(32).toString('hex') };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
