import type { DashboardRow, DashboardWithActive, VersionRow } from '../repositories/dashboard.repository.js';
import { ENTRY_POINT } from './bundle-extractor.js';

/** The URL path bundles of a dashboard are served under, by slug (JWT) or by share-link token. */
export type BundleBase = { slug: string } | { shareToken: string };

export function bundlePathOf(base: BundleBase, version: string): string {
  const root = 'slug' in base ? `/api/v1/dashboards/${base.slug}` : `/api/v1/shared-dashboards/${base.shareToken}`;
  return `${root}/bundle/${version}`;
}

const withoutAt = (scope: string) => scope.replace(/^@/, '');

/** The spec's Dashboard: `scope` without `@`, `entryPoint` the URL path of the active version's main.js (null before the first upload). */
export function dashboardView({ dashboard, active }: DashboardWithActive, base: BundleBase = { slug: dashboard.slug }) {
  return {
    id: dashboard.id,
    slug: dashboard.slug,
    name: dashboard.name,
    description: dashboard.description,
    version: active?.version ?? null,
    entryPoint: active ? `${bundlePathOf(base, active.version)}/${ENTRY_POINT}` : null,
    minSdkVersion: active?.minSdkVersion ?? null,
    scope: withoutAt(dashboard.scope),
    category: dashboard.category,
    visibility: dashboard.visibility,
    packDependencies: active?.packDependencies ?? [],
    created_at: dashboard.createdAt.toISOString(),
  };
}

export function createdView(dashboard: DashboardRow) {
  return { id: dashboard.id, scope: withoutAt(dashboard.scope), name: dashboard.name, slug: dashboard.slug, visibility: dashboard.visibility, created_at: dashboard.createdAt.toISOString() };
}

/** The spec's Dashboard version. */
export function versionView(version: VersionRow) {
  return {
    id: version.id,
    dashboard_id: version.dashboardId,
    version: version.version,
    entry_point: version.entryPoint,
    min_sdk_version: version.minSdkVersion,
    bundle_size_bytes: version.bundleSizeBytes,
    is_active: version.isActive,
    created_at: version.createdAt.toISOString(),
  };
}
