import { ValidationError, type AppError } from '@svc/core';
import { SLUG_MAX, SLUG_MIN } from '@svc/contracts';

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Names users could mistake for the platform itself. */
export const RESERVED_SLUGS = new Set([
  'system', 'admin', 'svc', 'api', 'root', 'support', 'www', 'platform',
  'administrator', 'billing', 'docs', 'help', 'mcp', 'security', 'status', 'internal', 'official',
]);
/** The platform's own prefix: `svc-anything` is reserved as well. */
const RESERVED_PREFIX = 'svc-';

function slugError(code: 'SLUG_INVALID' | 'SLUG_RESERVED', message: string, slug: string): AppError {
  return ValidationError.coded(code, message, { field: 'slug', value: slug, issue: message });
}

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug) || slug.startsWith(RESERVED_PREFIX);
}

/** Throws SLUG_INVALID or SLUG_RESERVED; availability is checked against the database separately. */
export function assertSlugAllowed(slug: string): void {
  if (slug.length < SLUG_MIN || slug.length > SLUG_MAX) {
    throw slugError('SLUG_INVALID', `Slug must be ${SLUG_MIN}-${SLUG_MAX} characters`, slug);
  }
  if (!SLUG_PATTERN.test(slug)) {
    throw slugError('SLUG_INVALID', 'Slug may contain only lowercase letters, digits and hyphens, and must not start or end with a hyphen', slug);
  }
  if (isReservedSlug(slug)) {
    throw slugError('SLUG_RESERVED', `Slug "${slug}" is reserved`, slug);
  }
}

export function slugTaken(slug: string): AppError {
  return ValidationError.coded('SLUG_TAKEN', `Slug "${slug}" is already in use`, { field: 'slug', value: slug, issue: 'taken' });
}
