import { z } from 'zod';
import { envCidrList, parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';
import { decodeKey } from './services/credential-sealer.js';

const sshKey = z.string({ error: 'is required: the base64 of 32 bytes (openssl rand -base64 32)' }).refine((value) => {
  try {
    decodeKey(value);
    return true;
  } catch {
    return false;
  }
}, 'must be the base64 of exactly 32 bytes (openssl rand -base64 32)');

/** The SSH service's own variables, which the standalone launcher reads too. */
export const sshEnv = {
  /** Previous keys, comma-separated, still opened while their credentials are re-sealed at start-up (see the README, "Key rotation"). */
  SVC_SSH_PREVIOUS_KEYS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((key) => key.trim()).filter(Boolean))
    .pipe(z.array(sshKey)),
  /** How long a target's connection stays open without a command. */
  SVC_SSH_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Private ranges targets may be in besides public addresses (CIDRs, comma-separated; tests: loopback). */
  SVC_SSH_ALLOWED_CIDRS: envCidrList,
};

export const SshEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8088),
  /** Seals SSH credentials: required, the fleet does not start without it. */
  SVC_SSH_ENCRYPTION_KEY: sshKey,
  ...sshEnv,
});

export type SshEnv = z.infer<typeof SshEnv>;

export function loadSshEnv(source: Record<string, string | undefined>): SshEnv {
  return parseEnv(SshEnv, source);
}
