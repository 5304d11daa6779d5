import { z } from 'zod';
import { secretValue } from '@svc/core';
import { API_KEY_SCOPES, displayName, ROLES } from './identity.js';
import { Timestamp } from './responses.js';

/** The slug is checked by identity's slug rules, so it surfaces as SLUG_INVALID, not a generic 400. */
export const OrganizationBody = z.strictObject({ name: displayName(), slug: z.string().max(100) });

export const DeveloperModeBody = z.union([
  z.strictObject({ organization: OrganizationBody }),
  z.strictObject({ access_code: secretValue(z.string().min(1).max(100)) }),
]);

export const INVITE_ROLES = ['admin', 'member'] as const;
export const InviteBody = z.strictObject({
  email: z.string().trim().toLowerCase().max(254).email('must be a valid e-mail address'),
  role: z.enum(INVITE_ROLES).default('member'),
});

export const API_KEY_NAME_MAX = 100;
/** How many live keys one user may hold. */
export const API_KEYS_PER_USER = 50;
export const CreateApiKeyBody = z.strictObject({
  name: displayName(API_KEY_NAME_MAX),
  scopes: z
    .array(z.string())
    .min(1, 'must name at least one scope')
    .refine((s) => s.length === 1 && s[0] === API_KEY_SCOPES[0], `must be exactly ["${API_KEY_SCOPES[0]}"]`),
});

export const Uuid = z.uuid('must be a uuid');

export const Organization = z
  .object({ id: z.uuid(), name: z.string(), slug: z.string(), scope: z.string().meta({ description: '`@` and the slug.' }), createdAt: Timestamp })
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof Organization>;

export const OrganizationDetail = Organization.extend({ members_count: z.number().int(), packs_count: z.number().int() }).meta({ id: 'OrganizationDetail' });

/** An organization as one of its members sees it: with their role. */
const MemberOrganization = Organization.pick({ id: true, name: true, slug: true, scope: true }).extend({ role: z.enum(ROLES) });

export const Member = z.object({ id: z.uuid(), user_id: z.uuid(), email: z.string(), role: z.enum(ROLES), joined_at: Timestamp }).meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;

export const Invite = z.object({ id: z.uuid(), email: z.string(), role: z.enum(INVITE_ROLES), expiresAt: Timestamp }).meta({ id: 'Invite' });
export type Invite = z.infer<typeof Invite>;

export const ApiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key_prefix: z.string().meta({ description: '`sk-svc-` and the first 8 hex digits.' }),
    scopes: z.array(z.string()),
    last_used_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const NewApiKey = ApiKey.omit({ last_used_at: true, revoked_at: true })
  .extend({ key: z.string().regex(/^sk-svc-[0-9a-f]{64}$/).meta({ description: 'The key itself: shown this once, stored only as a hash.' }) })
  .meta({ id: 'NewApiKey' });
export type NewApiKey = z.infer<typeof NewApiKey>;

/** `DELETE /api/v1/account/api-keys/{id}`. */
export const ApiKeyRevoked = ApiKey.extend({ message: z.string() });

/** `GET /api/v1/account/mode`: a consumer, or a developer with their first organization. */
export const AccountMode = z
  .discriminatedUnion('account_mode', [
    z.object({ account_mode: z.literal('consumer'), developer_mode_available: z.boolean() }),
    z.object({ account_mode: z.literal('developer'), organization: MemberOrganization }),
  ])
  .meta({ id: 'AccountMode' });
export type AccountMode = z.infer<typeof AccountMode>;

/** `GET /api/v1/account/organizations`. */
export const AccountOrganizations = z.object({ organizations: z.array(MemberOrganization.extend({ joined_at: Timestamp })) });

/** `POST /api/v1/account/developer-mode`. */
export const DeveloperModeTurnedOn = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), mode: z.literal('developer') }),
  organization: Organization.pick({ id: true, name: true, slug: true, scope: true }),
  message: z.string(),
});

/** `POST /api/v1/organizations` and `GET /api/v1/organizations/{slug}`. */
export const OrganizationCreated = z.object({ organization: Organization });
export const OrganizationFound = z.object({ organization: OrganizationDetail });
/** `POST /api/v1/organizations/{slug}/invites`. */
export const InviteSent = z.object({ invite: Invite, message: z.string() });

/** Whether a namespace is free for the caller to publish under, or why not. */
export const NamespaceCheck = z
  .discriminatedUnion('available', [
    z.object({ namespace: z.string(), available: z.literal(true), owner: z.enum(['personal', 'organization']) }),
    z.object({ namespace: z.string(), available: z.literal(false), error: z.string().meta({ description: 'Why not, and what to do.' }) }),
  ])
  .meta({ id: 'NamespaceCheck' });
export type NamespaceCheck = z.infer<typeof NamespaceCheck>;
