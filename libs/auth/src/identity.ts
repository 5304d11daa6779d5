import { z } from 'zod';

export const TIERS = ['free', 'developer_preview', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** Platform roles: `owner` and `admin` open the admin areas; everybody else is a `member`. */
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
  authKind: z.enum(['jwt', 'api_key']),
  /** Refresh-session family of the access token (JWT only). */
  sessionId: z.string().optional(),
  /** The API key used (API key only). */
  apiKeyId: z.string().optional(),
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

export function isAdmin(identity: Pick<Identity, 'role'>): boolean {
  return identity.role === 'owner' || identity.role === 'admin';
}
