import type { CreatedDashboard, Dashboard, DashboardVersion } from '@svc/contracts';
import { VIEW_TOKEN_PATH } from '@svc/auth';
import type { DashboardRow, DashboardWithActive, VersionRow } from '../repositories/dashboard.repository.js';
import { ENTRY_POINT } from './bundle-extractor.js';

/** What bundle files of a dashboard are read with: a JWT (by slug), a share link, or a viewer's view token. */
export type BundleBase = { slug: string } | { shareToken: string } | { viewToken: string };

function rootOf(base: BundleBase): string {
  if ('slug' in base) return `/api/v1/dashboards/${base.slug}`;
  if ('shareToken' in base) return `/api/v1/shared-dashboards/${base.shareToken}`;
  return `${VIEW_TOKEN_PATH}/${base.viewToken}`;
}

/**
 * Where a version's files are: on the dashboard origin when there is one (`origin`, e.g.
 * `https://dash.example.com`), so that browsers never run a bundle on the API's origin;
 * otherwise the API's own path (one origin).
 */
export function bundleUrlOf(base: BundleBase, version: string, origin = ''): string {
  return `${origin}${rootOf(base)}/bundle/${version}`;
}

const withoutAt = (scope: string) => scope.replace(/^@/, '');

/**
 * The spec's Dashboard: `scope` without `@`, `entryPoint` the URL of the active version's main.js
 * (on the dashboard origin when there is one; null before the first upload).
 */
export function dashboardView({ dashboard, active }: DashboardWithActive, base: BundleBase, origin: string): Dashboard {
  return {
    id: dashboard.id,
    slug: dashboard.slug,
    name: dashboard.name,
    description: dashboard.description,
    version: active?.version ?? null,
    entryPoint: active ? `${bundleUrlOf(base, active.version, origin)}/${ENTRY_POINT}` : null,
    minSdkVersion: active?.minSdkVersion ?? null,
    scope: withoutAt(dashboard.scope),
    category: dashboard.category,
    visibility: dashboard.visibility,
    packDependencies: active?.packDependencies ?? [],
    created_at: dashboard.createdAt.toISOString(),
  };
}

export function createdView(dashboard: DashboardRow): CreatedDashboard {
  return { id: dashboard.id, scope: withoutAt(dashboard.scope), name: dashboard.name, slug: dashboard.slug, visibility: dashboard.visibility, created_at: dashboard.createdAt.toISOString() };
}

/** The spec's Dashboard version. */
export function versionView(version: VersionRow): DashboardVersion {
  return {
    id: version.id,
    dashboard_id: version.dashboardId,
    version: version.version,
    // Every version is stored with ENTRY_POINT, the only entry point a bundle may have.
    entry_point: ENTRY_POINT,
    min_sdk_version: version.minSdkVersion,
    bundle_size_bytes: version.bundleSizeBytes,
    is_active: version.isActive,
    created_at: version.createdAt.toISOString(),
  };
}
