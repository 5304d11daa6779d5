import type { Identity } from '@svc/auth';
import type { SHARE_EXPIRIES } from '@svc/contracts';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { DashboardRepository, type DashboardWithActive, type ShareRow } from '../repositories/dashboard.repository.js';
import type { DashboardService } from './dashboard.service.js';
import type { ShareTokens } from './share-token.js';

const DAY_MS = 86_400_000;
const LIFETIME_MS: Record<(typeof SHARE_EXPIRIES)[number], number | null> = { '1d': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS, never: null };

/** The URL path of the shared dashboard's metadata, which a share link hands out. */
export const sharedPath = (token: string) => `/api/v1/shared-dashboards/${token}`;

const shareNotFound = () => new NotFoundError('Share link not found, expired or revoked', { reason: 'share_link_not_found' });

/** Share links: read access to one dashboard's metadata and bundles without an account, until they expire or are revoked. */
export class ShareService {
  private readonly repo: DashboardRepository;

  constructor(
    db: Db,
    private readonly dashboards: DashboardService,
    private readonly tokens: ShareTokens,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new DashboardRepository(db);
  }

  private view(share: ShareRow) {
    const token = this.tokens.sign({ shareId: share.id, expiresAt: share.expiresAt ? Math.floor(share.expiresAt.getTime() / 1000) : 0 });
    return { id: share.id, dashboard_id: share.dashboardId, token, url: sharedPath(token), expires_at: share.expiresAt?.toISOString() ?? null, created_at: share.createdAt.toISOString() };
  }

  async create(identity: Identity, dashboardId: string, expires: (typeof SHARE_EXPIRIES)[number]) {
    const { dashboard } = await this.dashboards.owned(identity, dashboardId, 'share');
    const lifetime = LIFETIME_MS[expires];
    // Whole seconds, as the token carries them.
    const expiresAt = lifetime === null ? null : new Date(Math.floor((this.clock().getTime() + lifetime) / 1000) * 1000);
    return this.view(await this.repo.createShare({ dashboardId: dashboard.id, expiresAt, createdBy: identity.userId }));
  }

  async list(identity: Identity, dashboardId: string) {
    const { dashboard } = await this.dashboards.owned(identity, dashboardId, 'list share links of');
    return (await this.repo.liveShares(dashboard.id, this.clock())).map((share) => this.view(share));
  }

  async revoke(identity: Identity, dashboardId: string, shareId: string) {
    const { dashboard } = await this.dashboards.owned(identity, dashboardId, 'revoke share links of');
    if (!(await this.repo.deleteShare(dashboard.id, shareId))) throw new NotFoundError('Share link not found', { share_id: shareId });
    return { revoked: true as const, id: shareId, dashboard_id: dashboard.id };
  }

  /** The dashboard a live share link opens; 404 for a forged, malformed, expired or revoked token. */
  async open(token: string): Promise<DashboardWithActive> {
    const claims = this.tokens.verify(token);
    const now = this.clock();
    if (!claims || (claims.expiresAt !== 0 && claims.expiresAt * 1000 <= now.getTime())) throw shareNotFound();
    const share = await this.repo.findShare(claims.shareId);
    if (!share || (share.expiresAt && share.expiresAt <= now)) throw shareNotFound();
    const found = await this.repo.findById(share.dashboardId);
    if (!found) throw shareNotFound();
    return found;
  }

  async get(token: string) {
    return this.dashboards.view(await this.open(token), { shareToken: token });
  }
}
