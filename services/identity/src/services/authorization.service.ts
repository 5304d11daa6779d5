import type { Identity } from '@svc/auth';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { OAuthGrantRepository, type OAuthGrantRow } from '../repositories/oauth-grant.repository.js';
import type { OAuthService } from './oauth.service.js';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function view(grant: OAuthGrantRow, tenantSlug: string) {
  return {
    id: grant.id,
    client_id: grant.clientId,
    client_name: grant.clientName,
    redirect_host: new URL(grant.redirectUri).host,
    tenant: { id: grant.tenantId, slug: tenantSlug },
    scopes: grant.scopes,
    resource: grant.resource,
    created_at: grant.createdAt.toISOString(),
    last_used_at: grant.lastUsedAt?.toISOString() ?? null,
    revoked_at: grant.revokedAt?.toISOString() ?? null,
  };
}

/** The applications (OAuth clients) a user authorized, which they list and revoke (`/account/authorizations`). */
export class AuthorizationService {
  constructor(
    private readonly db: Db,
    private readonly oauth: OAuthService,
  ) {}

  async list(caller: Identity) {
    return (await new OAuthGrantRepository(this.db).liveOf(caller.userId)).map((grant) => view(grant, grant.tenantSlug));
  }

  /** Ends an authorization: its refresh token no longer refreshes and its access tokens stop at once. */
  async revoke(caller: Identity, id: string) {
    const found = ID.test(id) ? (await new OAuthGrantRepository(this.db).liveOf(caller.userId)).find((grant) => grant.id === id.toLowerCase()) : undefined;
    if (!found) throw new NotFoundError('Authorization not found', { authorization_id: id });
    const revoked = (await this.oauth.revokeGrant(found.id)) ?? found;
    return { ...view(revoked, found.tenantSlug), message: 'Authorization revoked' };
  }
}
