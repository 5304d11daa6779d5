import type { Identity } from '@svc/auth';
import type { Db } from '@svc/db';
import { UserRepository } from '../repositories/user.repository.js';
import { assertSlugAllowed, isReservedSlug } from './slug.js';

/**
 * Whether the caller may publish under `namespace`: the three outcomes of the spec, a reserved
 * namespace being one nobody can have. A malformed one is a 400 (SLUG_INVALID).
 */
export async function checkNamespace(db: Db, caller: Identity, namespace: string) {
  const mine = caller.memberships.find((m) => m.slug === namespace);
  if (mine) return { namespace, available: true, owner: mine.kind === 'personal' ? ('personal' as const) : ('organization' as const) };
  if (await new UserRepository(db).slugExists(namespace)) {
    return { namespace, available: false, error: `Namespace "${namespace}" is in use by another account or organization` };
  }
  if (isReservedSlug(namespace)) {
    return { namespace, available: false, error: `Namespace "${namespace}" is reserved by the platform: publish under your personal namespace "${caller.tenantSlug}" or an organization of yours` };
  }
  assertSlugAllowed(namespace);
  return {
    namespace,
    available: false,
    error: `No account or organization has the namespace "${namespace}": create an organization with this slug first, or publish under your personal namespace "${caller.tenantSlug}"`,
  };
}
