import { z } from 'zod';
import { secretValue } from '@svc/core';
import { MAX_SSH_TARGET_NAME_LENGTH, SSH_TARGET_NAME_PATTERN } from '@svc/pack-sdk/names';
import { Timestamp } from './responses.js';

/** Part 2 "Limits": SSH field sizes. */
export const SSH_TARGET_NAME_MAX = MAX_SSH_TARGET_NAME_LENGTH;
export const SSH_HOST_MAX = 253;
export const SSH_USERNAME_MAX = 128;
export const SSH_DEFAULT_PORT = 22;
/** Largest private key or password accepted, UTF-8 bytes (an RSA 16384-bit key in PEM is under 13 KiB). */
export const SSH_CREDENTIAL_MAX_BYTES = 16 * 1024;
/** Largest `known_hosts` line. */
export const SSH_KNOWN_HOSTS_MAX = 16 * 1024;
/** Largest command a pack may send. */
export const SSH_COMMAND_MAX_BYTES = 64 * 1024;
/** What `ctx.ssh.exec` keeps of each of stdout and stderr; the rest is cut and `truncated` says so. */
export const SSH_OUTPUT_MAX_BYTES = 256 * 1024;
/** `ctx.ssh.exec` without `timeoutMs`, and the longest a caller may ask for. */
export const SSH_EXEC_DEFAULT_TIMEOUT_MS = 30_000;
export const SSH_EXEC_MAX_TIMEOUT_MS = 10 * 60_000;

/** The messages of Part 2 "SSH targets", which packs see as their error's message (`details` say more). */
export const SSH_MESSAGES = {
  notAllowed: "target not allowed by this pack's manifest",
  notFound: 'SSH target not found',
  noHostKey: 'no host key fingerprint stored',
  connectionFailed: 'connection failed',
  timedOut: 'command timed out',
} as const;

/** A hostname (RFC 1123 labels) or an IPv4 / IPv6 address. */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/;

const bytesAtMost = (max: number) => (value: string) => Buffer.byteLength(value) <= max;
const noNul = (value: string) => !value.includes('\u0000');

export const SshTargetName = z
  .string()
  .min(1, 'must not be empty')
  .max(SSH_TARGET_NAME_MAX, `must be at most ${SSH_TARGET_NAME_MAX} characters`)
  .regex(SSH_TARGET_NAME_PATTERN, 'must be kebab-case: lowercase letters and digits, words joined by single hyphens');

export const SshHost = z
  .string()
  .max(SSH_HOST_MAX, `must be at most ${SSH_HOST_MAX} characters`)
  .refine((host) => z.ipv4().safeParse(host).success || z.ipv6().safeParse(host).success || HOSTNAME.test(host), 'must be a hostname or an IP address');

export const SshPort = z.number().int('must be an integer').min(1, 'must be 1-65535').max(65535, 'must be 1-65535');
export const SshUsername = z
  .string()
  .min(1, 'must not be empty')
  .max(SSH_USERNAME_MAX, `must be at most ${SSH_USERNAME_MAX} characters`)
  .refine((name) => ![...name].some((char) => char <= ' ' || char === '\u007f'), 'must not contain spaces or control characters');
export const SshAuthMethod = z.enum(['key', 'password'], 'must be "key" or "password"');

/** A credential: write-only, and never echoed in a validation error (`secretValue`). */
const credential = (what: string) =>
  secretValue(
    z
      .string()
      .min(1, 'must not be empty')
      .refine(bytesAtMost(SSH_CREDENTIAL_MAX_BYTES), `${what} must be at most ${SSH_CREDENTIAL_MAX_BYTES} bytes`)
      .refine(noNul, 'must not contain U+0000'),
  );

export const SshPrivateKey = credential('a private key');
export const SshPassword = credential('a password');
export const SshKnownHostsLine = z.string().min(1, 'must not be empty').refine(bytesAtMost(SSH_KNOWN_HOSTS_MAX), `must be at most ${SSH_KNOWN_HOSTS_MAX} bytes`);

const targetFields = {
  name: SshTargetName,
  host: SshHost,
  port: SshPort,
  username: SshUsername,
  auth_method: SshAuthMethod,
  private_key: SshPrivateKey,
  password: SshPassword,
  known_hosts: SshKnownHostsLine,
};

/** `POST /api/v1/ssh/targets`; which credential `auth_method` needs is checked by the service. */
export const SshTargetCreateBody = z.strictObject({
  ...targetFields,
  port: targetFields.port.default(SSH_DEFAULT_PORT),
  private_key: targetFields.private_key.optional(),
  password: targetFields.password.optional(),
  known_hosts: targetFields.known_hosts.optional(),
});
export type SshTargetCreateBody = z.infer<typeof SshTargetCreateBody>;

/** `PUT /api/v1/ssh/targets/{id}`: any mutable field; `known_hosts: null` forgets the stored host key. */
export const SshTargetUpdateBody = z.strictObject({
  name: targetFields.name.optional(),
  host: targetFields.host.optional(),
  port: targetFields.port.optional(),
  username: targetFields.username.optional(),
  auth_method: targetFields.auth_method.optional(),
  private_key: targetFields.private_key.optional(),
  password: targetFields.password.optional(),
  known_hosts: targetFields.known_hosts.nullable().optional(),
});
export type SshTargetUpdateBody = z.infer<typeof SshTargetUpdateBody>;

export const SshTargetParams = z.object({ id: z.uuid('must be a target id (uuid)') });

/** RPC of the execution worker: run a command on a target of the run's tenant, for `ctx.ssh.exec`. */
export const SSH_EXEC_RPC = 'ssh.exec';
export const SshExecRequest = z.strictObject({
  tenantId: z.uuid('must be a tenant id (uuid)'),
  target: SshTargetName,
  command: z.string().min(1, 'must not be empty').refine(bytesAtMost(SSH_COMMAND_MAX_BYTES), `must be at most ${SSH_COMMAND_MAX_BYTES} bytes`).refine(noNul, 'must not contain U+0000'),
  timeoutMs: z.number().int('must be an integer').min(1, 'must be at least 1').max(SSH_EXEC_MAX_TIMEOUT_MS, `must be at most ${SSH_EXEC_MAX_TIMEOUT_MS}`),
});
/** Answer of SSH_EXEC_RPC, what `ctx.ssh.exec` resolves to. `exit_code` is null when the command ended on a signal. */
export const SshExecReply = z.strictObject({
  stdout: z.string(),
  stderr: z.string(),
  exit_code: z.number().int().nullable(),
  truncated: z.boolean(),
});
export type SshExecReply = z.infer<typeof SshExecReply>;

/** A target as the API shows it: no credential, sealed or not. */
export const SshTarget = z
  .object({
    id: z.uuid(),
    name: z.string(),
    host: z.string(),
    port: z.number().int().min(1).max(65535),
    username: z.string(),
    auth_method: SshAuthMethod,
    known_hosts: z.string().nullable().meta({ description: 'The trusted host key line; null until stored (commands refuse the target until then).' }),
    has_credentials: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'SshTarget', description: 'A target without its credentials, sealed or not, which are never answered.' });
export type SshTarget = z.infer<typeof SshTarget>;

/** `POST /api/v1/ssh/targets/{id}/verify`. */
export const SshVerifyResult = z.object({
  connected: z.boolean(),
  fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/),
});
export type SshVerifyResult = z.infer<typeof SshVerifyResult>;
