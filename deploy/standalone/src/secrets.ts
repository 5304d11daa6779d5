import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FleetSecrets {
  SVC_JWT_SECRET: string;
  SVC_INTERNAL_SECRET: string;
  /** Seals SSH credentials: base64 of 32 bytes. */
  SVC_SSH_ENCRYPTION_KEY: string;
}

const generate: Record<keyof FleetSecrets, () => string> = {
  SVC_JWT_SECRET: () => randomBytes(32).toString('hex'),
  SVC_INTERNAL_SECRET: () => randomBytes(32).toString('hex'),
  SVC_SSH_ENCRYPTION_KEY: () => randomBytes(32).toString('base64'),
};

/**
 * Secrets for a standalone installation that was given none: made once and kept beside the
 * data (mode 0600), so tokens survive a restart just as accounts do, and SSH credentials stay
 * readable. A secret added since the file was written is made and added to it.
 */
export function loadOrCreateSecrets(dataDir: string): FleetSecrets {
  const file = join(dataDir, 'secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<FleetSecrets>) : {};
  const missing = (Object.keys(generate) as (keyof FleetSecrets)[]).filter((name) => !kept[name]);
  if (missing.length === 0) return kept as FleetSecrets;
  const secrets = { ...kept, ...Object.fromEntries(missing.map((name) => [name, generate[name]()])) } as FleetSecrets;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
