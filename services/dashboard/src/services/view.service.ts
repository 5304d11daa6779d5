import { VIEW_TOKEN_TTL_SECONDS, type Identity, type ViewTokens } from '@svc/auth';
import { NotFoundError, PermissionError } from '@svc/core';
import type { DashboardWithActive } from '../repositories/dashboard.repository.js';
import { ENTRY_POINT } from './bundle-extractor.js';
import type { DashboardService } from './dashboard.service.js';

const viewNotFound = () => new NotFoundError('View token not found, expired, or not this session\'s', { reason: 'view_token_not_found' });

/**
 * View tokens: how a dashboard frame on the dashboard origin reads its files without ever holding
 * the viewer's access or refresh token (README, "Two origins"). A signed-in viewer mints one for a
 * dashboard they may see; the gateway resolves the token's session to the viewer on every file,
 * and `open` checks that it is this viewer's token for a dashboard they may still see.
 */
export class ViewService {
  constructor(
    private readonly dashboards: DashboardService,
    private readonly tokens: ViewTokens,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async mint(identity: Identity, slug: string) {
    // The gateway lets only access tokens reach this route; a token is bound to their session.
    if (!identity.sessionId) throw new PermissionError('View tokens are minted for a signed-in session (an access token)', { reason: 'session_required' });
    const found = await this.dashboards.visibleBySlug(identity, slug);
    const expiresAt = Math.floor(this.clock().getTime() / 1000) + VIEW_TOKEN_TTL_SECONDS;
    const token = this.tokens.sign({ dashboardId: found.dashboard.id, userId: identity.userId, sessionId: identity.sessionId, expiresAt });
    const version = found.active?.version ?? null;
    const baseUrl = version === null ? null : this.dashboards.bundleUrl({ viewToken: token }, version);
    return {
      token,
      dashboard_id: found.dashboard.id,
      version,
      base_url: baseUrl,
      entryPoint: baseUrl === null ? null : `${baseUrl}/${ENTRY_POINT}`,
      expires_at: new Date(expiresAt * 1000).toISOString(),
    };
  }

  /** The dashboard a view token opens for this caller: their own session's token, for a dashboard they may still see; 404 otherwise. */
  async open(identity: Identity, token: string): Promise<DashboardWithActive> {
    const claims = this.tokens.verify(token, this.clock());
    if (!claims || claims.userId !== identity.userId || claims.sessionId !== identity.sessionId) throw viewNotFound();
    return this.dashboards.visibleById(identity, claims.dashboardId);
  }
}
