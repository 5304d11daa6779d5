import { z } from 'zod';
import { IdentitySchema } from '@svc/auth';

export const TIER_VALUES = ['free', 'developer_preview', 'pro', 'enterprise'] as const;
export const SLUG_MIN = 2;
export const SLUG_MAX = 39;
export const PASSWORD_MIN = 8;
/** bcrypt reads at most 72 bytes; a longer password would be silently truncated. */
export const PASSWORD_MAX = 72;
export const ACCESS_CODE_PATTERN = /^SVC-[A-Z0-9]{4}-[A-Z0-9]{4}$/;

/**
 * A name people read (of a user, an organization, an API key): one line of printable text.
 * Control characters have no place in one, and Postgres cannot hold U+0000 in text.
 */
export function displayName(max = 100, min = 1) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(/^\P{Cc}*$/u, 'must not contain control characters');
}

const email = z.string().trim().toLowerCase().max(254).email('must be a valid e-mail address');
const password = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .refine((p) => Buffer.byteLength(p) <= PASSWORD_MAX, `must be at most ${PASSWORD_MAX} bytes`);

export const RegisterBody = z.strictObject({
  email,
  password,
  slug: z.string(),
  access_code: z.string().regex(ACCESS_CODE_PATTERN, 'must have the format SVC-XXXX-XXXX'),
  name: displayName(100, 0).optional(),
});

export const LoginBody = z.strictObject({ email, password: z.string().min(1).max(1024) });
export const RefreshBody = z.strictObject({ refreshToken: z.string().min(1).max(512) });
export const ChangePasswordBody = z.strictObject({ current_password: z.string().min(1).max(1024), new_password: password });
export const ChangePasswordLoginBody = ChangePasswordBody.extend({ email });
export const UpdateMeBody = z.strictObject({ name: displayName() });

/** Platform roles the owner may give or take: `owner` belongs to the bootstrapped operator only. */
export const APPOINTABLE_ROLES = ['admin', 'member'] as const;

/** `PUT /api/v1/users/{user_id}/role`: the platform owner appoints an admin, or makes one a member again. */
export const SetPlatformRoleBody = z.strictObject({ role: z.enum(APPOINTABLE_ROLES) });

export const CreateAccessCodesBody = z.strictObject({
  count: z.number().int().min(1).max(100).default(1),
  tier: z.enum(TIER_VALUES),
  cohort: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1-64 characters of a-z, 0-9, "-" and "_"'),
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9]{1,4}$/, 'must be 1-4 letters or digits')
    .transform((p) => p.toUpperCase())
    .optional(),
  max_uses: z.number().int().min(1).max(1_000_000).default(1),
});

export const ValidateAccessCodeBody = z.strictObject({ code: z.string().max(64) });

/** What the gateway asks identity to turn a credential into an Identity. */
export const PRINCIPAL_RPC = 'identity.principal';
export const PrincipalRequest = z.union([z.strictObject({ sessionId: z.string() }), z.strictObject({ apiKeyHash: z.string().regex(/^[0-9a-f]{64}$/) })]);
/** Null when the session or key is unknown, revoked or expired. */
export const PrincipalReply = z.object({ identity: IdentitySchema.nullable() });

/** Cache key under which identity publishes a session's Identity for the gateway. */
export function principalCacheKey(sessionId: string): string {
  return `principal:session:${sessionId}`;
}

/** Cache key of the Identity behind an API key, by the SHA-256 of the key. */
export function apiKeyPrincipalCacheKey(keyHash: string): string {
  return `principal:api-key:${keyHash}`;
}

export const API_KEY_PATTERN = /^sk-svc-[0-9a-f]{64}$/;
export const API_KEY_SCOPES = ['commands:execute'] as const;

/** Answered by every service and the execution workers: is anything of the fleet on the bus. */
export const FLEET_PING_RPC = 'fleet.ping';
export const FleetPing = z.object({});
export const FleetPong = z.object({ service: z.string() });

/**
 * Answered by execution workers only (`{service: 'execution-worker'}`): the gateway's `/health`
 * reports the worker healthy only when one of them answers, not when any service does.
 */
export const WORKER_PING_RPC = 'execution.worker.ping';

/** A user's tier changed (billing, an operator, an access code): the gateway's limits follow it. */
export const UserTierChanged = z.object({
  user_id: z.string(),
  tenant_id: z.string(),
  tier: z.enum(TIER_VALUES),
  previous_tier: z.enum(TIER_VALUES),
  source: z.enum(['billing', 'admin', 'access_code']),
  reason: z.string().nullable().default(null),
});

/** Mints one access code for another service (paid registration, an operator's comp code); the literal travels only in the reply. */
export const MINT_ACCESS_CODE_RPC = 'identity.access-code.mint';
export const MintAccessCodeRequest = z.strictObject({
  tier: z.enum(TIER_VALUES),
  cohort: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
  max_uses: z.number().int().min(1).max(1_000_000).default(1),
  expires_at: z.string().datetime().nullable().default(null),
  kind: z.enum(['standard', 'comp', 'registration']).default('standard'),
});
export const MintedAccessCode = z.object({ id: z.string(), code: z.string() });

/** Deactivates an access code by id (a disputed registration payment, say). */
export const DEACTIVATE_ACCESS_CODE_RPC = 'identity.access-code.deactivate';
export const DeactivateAccessCodeRequest = z.strictObject({ id: z.string() });
export const DeactivatedAccessCode = z.object({ id: z.string(), is_active: z.literal(false) });

/** An operator's manual tier change. */
export const SET_USER_TIER_RPC = 'identity.user.set-tier';
export const SetUserTierRequest = z.strictObject({ user_id: z.string(), tier: z.enum(TIER_VALUES), reason: z.string().min(1).max(500), changed_by: z.string() });
export const SetUserTierReply = z.object({ user_id: z.string(), tier: z.enum(TIER_VALUES), previous_tier: z.enum(TIER_VALUES) });

/** Ends every refresh session of a user; the gateway stops accepting their access tokens at once. */
export const REVOKE_SESSIONS_RPC = 'identity.sessions.revoke';
export const RevokeSessionsRequest = z.strictObject({ user_id: z.string() });
export const RevokeSessionsReply = z.object({ revoked: z.number().int().min(0) });
