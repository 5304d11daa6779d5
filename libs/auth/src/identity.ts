import { z } from 'zod';

export const TIERS = ['free', 'developer_preview', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * The role names, used at two levels that never mix (root README, "Roles"):
 *
 * - The platform role, `Identity.role` (`User.role`): `owner` is the operator account that
 *   `SVC_ADMIN_EMAIL` bootstraps; `admin` is appointed by the owner
 *   (`PUT /api/v1/users/{user_id}/role`); everybody else is `member`. It opens the platform's
 *   admin areas (access codes, Part 2's admin and metrics) and nothing of any tenant.
 * - A tenant role, `Identity.memberships[].role`: every user is `owner` of their personal
 *   tenant; in an organization, the role of their membership (`owner`, `admin`, `member`). It
 *   governs that tenant's own things (members, invites, packs) and never the platform's.
 */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const MembershipSchema = z.object({
  tenantId: z.string(),
  slug: z.string(),
  kind: z.enum(['personal', 'organization']),
  role: z.enum(ROLES),
});

/** A tenant the caller belongs to: the personal one (role owner) and each organization joined. */
export type Membership = z.infer<typeof MembershipSchema>;

export const IdentitySchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  tier: z.enum(TIERS),
  developerMode: z.boolean(),
  tenantId: z.string(),
  tenantSlug: z.string(),
  /** `oauth`: an access token an MCP client got through the platform's authorization server (`/mcp` only). */
  authKind: z.enum(['jwt', 'api_key', 'oauth']),
  /** Refresh-session family of the access token (JWT only). */
  sessionId: z.string().optional(),
  /** The API key used (API key only). */
  apiKeyId: z.string().optional(),
  /**
   * The authorization an OAuth token was issued under (OAuth only). Such an identity is bound to
   * the tenant the user chose: `tenantId` is that tenant and `memberships` holds it alone.
   */
  oauthGrantId: z.string().optional(),
  scopes: z.array(z.string()),
  /** Every tenant the caller belongs to, the personal tenant first. */
  memberships: z.array(MembershipSchema),
});

/** Who is calling, as the gateway established it and every service receives it. */
export type Identity = z.infer<typeof IdentitySchema>;

/** Ids of every tenant the caller belongs to. */
export function tenantIdsOf(identity: Pick<Identity, 'memberships'>): string[] {
  return identity.memberships.map((m) => m.tenantId);
}

/**
 * The one answer to "is this caller a platform admin": platform role `admin` or `owner`, which
 * the spec's admin-only areas require ("role admin or owner"). An organization's owner or
 * admin is not one, nor is anybody as owner of their personal tenant.
 *
 * @example
 *   if (!isPlatformAdmin(identity)) throw new PermissionError('Admin or owner role required');
 */
export function isPlatformAdmin(identity: Pick<Identity, 'role'>): boolean {
  return identity.role === 'owner' || identity.role === 'admin';
}

/** The caller's role in a tenant (their personal one: `owner`), or undefined when they are not a member. */
export function tenantRoleOf(identity: Pick<Identity, 'memberships'>, tenantId: string): Role | undefined {
  return identity.memberships.find((m) => m.tenantId === tenantId)?.role;
}
