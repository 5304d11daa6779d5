import { z } from 'zod';
import { secretValue } from '@svc/core';
import { API_KEY_SCOPES, displayName } from './identity.js';

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
