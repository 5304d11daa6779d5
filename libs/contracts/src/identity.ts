import { z } from 'zod';
import { secretValue } from '@svc/core';
import { IdentitySchema } from '@svc/auth';
import { Timestamp } from './responses.js';

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
  // An access code is a credential: a refused one is not sent back.
  access_code: secretValue(z.string().regex(ACCESS_CODE_PATTERN, 'must have the format SVC-XXXX-XXXX')),
  name: displayName(100, 0).optional(),
});

export const LoginBody = z.strictObject({ email, password: z.string().min(1).max(1024) });
export const RefreshBody = z.strictObject({ refreshToken: z.string().min(1).max(512) });
export const ChangePasswordBody = z.strictObject({ current_password: z.string().min(1).max(1024), new_password: password });
export const ChangePasswordLoginBody = ChangePasswordBody.extend({ email });
/** `POST /auth/password-reset`: where to send a link to choose a new password. */
export const PasswordResetBody = z.strictObject({ email });
/** `POST /auth/password-reset/confirm`: the link's token and the new password (the registration rules). */
export const PasswordResetConfirmBody = z.strictObject({ token: secretValue(z.string().min(1).max(256)), password });
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

export const ValidateAccessCodeBody = z.strictObject({ code: secretValue(z.string().max(64)) });

/** What the gateway asks identity to turn a credential into an Identity. */
export const PRINCIPAL_RPC = 'identity.principal';
export const PrincipalRequest = z.union([
  z.strictObject({ sessionId: z.string() }),
  z.strictObject({ apiKeyHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  z.strictObject({ oauthGrantId: z.string().uuid() }),
]);
/** Null when the session, key or OAuth authorization is unknown, revoked or expired. */
export const PrincipalReply = z.object({ identity: IdentitySchema.nullable() });

/**
 * Who a user is now, by id, for work done on their behalf without a request (a schedule firing):
 * their tier and memberships as they stand. Null when there is no such user.
 */
export const USER_PRINCIPAL_RPC = 'identity.principal.user';
export const UserPrincipalRequest = z.strictObject({ user_id: z.uuid() });

/** Cache key under which identity publishes a session's Identity for the gateway. */
export function principalCacheKey(sessionId: string): string {
  return `principal:session:${sessionId}`;
}

/** Cache key of the Identity behind an API key, by the SHA-256 of the key. */
export function apiKeyPrincipalCacheKey(keyHash: string): string {
  return `principal:api-key:${keyHash}`;
}

/** Cache key of the Identity behind an OAuth authorization (its tokens name it as `gid`). */
export function oauthPrincipalCacheKey(grantId: string): string {
  return `principal:oauth:${grantId}`;
}

export const API_KEY_PATTERN = /^sk-svc-[0-9a-f]{64}$/;
export const API_KEY_SCOPES = ['commands:execute'] as const;

/** Answered by every service and the execution workers: is anything of the fleet on the bus. */
export const FLEET_PING_RPC = 'fleet.ping';
export const FleetPing = z.object({});
export const FleetPong = z.object({
  service: z.string(),
  /** Execution workers: the interpreter Python packs run on (`SVC_PYTHON`), null when there is none. */
  python: z.object({ interpreter: z.string(), version: z.string() }).nullable().optional(),
});

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

/** Who asked for a code: an operator (`standard`, `comp`) or a paid registration (`registration`). */
export const ACCESS_CODE_KINDS = ['standard', 'comp', 'registration'] as const;

/** Mints one access code for another service (paid registration, an operator's comp code); the literal travels only in the reply. */
export const MINT_ACCESS_CODE_RPC = 'identity.access-code.mint';
export const MintAccessCodeRequest = z.strictObject({
  tier: z.enum(TIER_VALUES),
  cohort: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
  max_uses: z.number().int().min(1).max(1_000_000).default(1),
  expires_at: z.string().datetime().nullable().default(null),
  kind: z.enum(ACCESS_CODE_KINDS).default('standard'),
  /**
   * Copies of one request with the same key answer the one code the first minted (billing passes
   * its checkout session id, so concurrent copies of a webhook mint one code). Not for comp
   * codes, whose literal is not kept to be answered again.
   */
  idempotency_key: z.string().min(1).max(255).optional(),
}).refine((r) => !(r.idempotency_key && r.kind === 'comp'), { message: 'a comp code takes no idempotency key', path: ['idempotency_key'] });
export const MintedAccessCode = z.object({ id: z.string(), code: z.string() });

/**
 * The admin area's list of access codes, newest first, without any literal: filters, then either
 * the sort key of the last row seen (`after`) or rows to skip (`offset`); `limit` rows at most.
 */
export const LIST_ACCESS_CODES_RPC = 'identity.access-codes.list';
export const ListAccessCodesRequest = z.strictObject({
  kind: z.enum(ACCESS_CODE_KINDS).optional(),
  redeemed: z.boolean().optional(),
  cohort: z.string().max(64).optional(),
  after: z.strictObject({ created_at: z.string().datetime({ offset: true }), id: z.uuid() }).optional(),
  offset: z.number().int().min(0).max(100_000).default(0),
  limit: z.number().int().min(1).max(201),
});
export const ListedAccessCodes = z.object({
  codes: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(ACCESS_CODE_KINDS),
      tier: z.enum(TIER_VALUES),
      cohort: z.string(),
      max_uses: z.number().int(),
      use_count: z.number().int(),
      is_active: z.boolean(),
      redeemed_by: z.string().nullable(),
      redeemed_at: z.string().nullable(),
      expires_at: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});

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

/**
 * The tenants (personal or organization) among these ids and slugs: a dashboard is granted only
 * to tenants that exist, named by id or by scope. Unknown ones are left out of the reply.
 */
export const FIND_TENANTS_RPC = 'identity.tenants.find';
export const FindTenantsRequest = z.strictObject({ tenant_ids: z.array(z.uuid()).max(100).default([]), slugs: z.array(z.string().max(64)).max(100).default([]) });
export const FoundTenants = z.object({ tenants: z.array(z.object({ id: z.string(), slug: z.string() })) });

/** A role: of the platform (a user's), or in an organization (a member's). */
export const ROLES = ['owner', 'admin', 'member'] as const;

export const User = z
  .object({
    id: z.uuid(),
    email: z.email(),
    name: z.string(),
    role: z.enum(ROLES).meta({
      description:
        'The platform role: `owner` (the operator account), `admin` (appointed by the owner), `member` (everybody else). Not a tenant role: every user owns their personal tenant, and organization roles are in `GET /account/mode` and the members list.',
    }),
    developerMode: z.boolean(),
    subscriptionTier: z.enum(TIER_VALUES),
    createdAt: Timestamp,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const CurrentUser = User.extend({ tenantSlug: z.string(), tenantId: z.uuid() }).meta({ id: 'CurrentUser', description: 'The caller, with their personal tenant.' });
export type CurrentUser = z.infer<typeof CurrentUser>;

export const Tokens = z
  .object({
    accessToken: z.string().meta({ description: 'A bearer JWT.' }),
    refreshToken: z.string().meta({ description: 'Single use: each refresh returns a new one.' }),
    expiresAt: z.number().int().meta({ description: 'When the access token expires, in milliseconds since the Unix epoch.' }),
    refreshExpiresAt: z.number().int().meta({
      description:
        'When the refresh token expires, in milliseconds since the Unix epoch. Every refresh answers a new refresh token a whole refresh lifetime ahead (30 days by default): a session in use slides on.',
    }),
  })
  .meta({ id: 'Tokens' });
export type Tokens = z.infer<typeof Tokens>;

/** Register and login: the session's tokens and who it is for. */
export const SignedIn = z.object({ tokens: Tokens, user: User }).meta({ id: 'SignedIn' });
export type SignedIn = z.infer<typeof SignedIn>;

/** `POST /api/v1/auth/refresh-cookie`: the refresh token travels in the cookie only. */
export const CookieRefreshed = Tokens.pick({ accessToken: true, expiresAt: true });

export const AccessCode = z
  .object({
    id: z.uuid(),
    code: z
      .string()
      .regex(ACCESS_CODE_PATTERN)
      .nullable()
      .meta({ description: 'Null for a comp code: its literal was answered once, to the operator who minted it, and is not kept.' }),
    tier: z.enum(TIER_VALUES),
    cohort: z.string(),
    max_uses: z.number().int(),
    use_count: z.number().int(),
    is_active: z.boolean(),
    redeemed_by: z.uuid().nullable(),
    redeemed_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'AccessCode' });
export type AccessCode = z.infer<typeof AccessCode>;

/** `POST /api/v1/access-codes`: the literals, answered this once. */
export const AccessCodesMinted = z.object({ codes: z.array(z.string()), count: z.number().int(), tier: z.enum(TIER_VALUES), cohort: z.string() });
/** `DELETE /api/v1/access-codes/{id}`. */
export const AccessCodeDeactivated = z.object({ id: z.uuid(), is_active: z.literal(false) });
/** `POST /api/v1/access-codes/validate`: a code that can be used (one that cannot is the reduced error body). */
export const AccessCodeValid = z.object({ valid: z.literal(true), tier: z.enum(TIER_VALUES) });
