import { text } from 'node:stream/consumers';
import type { Identity } from '@svc/auth';
import { DASHBOARD_APP_MAX_BYTES, type DashboardApp } from '@svc/contracts';
import { AppError } from '@svc/core';
import type { BundleService } from './bundle.service.js';
import type { DashboardService } from './dashboard.service.js';

/**
 * A dashboard as an MCP App (`dashboard.app.read`): its active version's entry module, for a
 * caller who may see the dashboard. Nothing is said about the others: null, as for none.
 */
export class DashboardAppService {
  constructor(
    private readonly dashboards: DashboardService,
    private readonly bundles: BundleService,
  ) {}

  async read(identity: Identity, slug: string): Promise<DashboardApp> {
    const found = await this.dashboards.visibleBySlug(identity, slug).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404) return undefined;
      throw err;
    });
    if (!found?.active) return { app: null };
    const { dashboard, active } = found;
    const entry = await this.bundles.file(found, active.version, active.entryPoint);
    if (entry.file.sizeBytes > DASHBOARD_APP_MAX_BYTES) return { app: null };
    const body = await entry.read();
    if (!body) return { app: null };
    return {
      app: { id: dashboard.id, slug: dashboard.slug, name: dashboard.name, scope: dashboard.scope, version: active.version, version_id: active.id, main_js: Buffer.isBuffer(body) ? body.toString('utf8') : await text(body) },
    };
  }
}
