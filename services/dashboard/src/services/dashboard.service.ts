import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import semver from 'semver';
import { belongsTo, requireDeveloperMode, tenantIdsOf, tenantOfNamespace, type Identity } from '@svc/auth';
import type { BlobStore } from '@svc/blobs';
import type { Bus, EventOutbox } from '@svc/bus';
import { FIND_TENANTS_RPC, PackDependencies, type CreateDashboardBody, type DashboardGrantBody, type UploadVersionFields } from '@svc/contracts';
import { ConflictError, parseInput, PermissionError, ValidationError, type Logger } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { DashboardRepository, type DashboardWithActive } from '../repositories/dashboard.repository.js';
import { ENTRY_POINT, extractBundle } from './bundle-extractor.js';
import { bundleUrlOf, createdView, dashboardView, versionView, type BundleBase } from './dashboard-view.js';
import { dashboardNotFound, notOwner, versionNotGreater } from './errors.js';
import { RecentDashboards } from './recent-dashboards.js';

/** Where a dashboard's bundles are kept in the blob store; one folder per version. */
export const bundlePrefix = (dashboardId: string, versionId?: string) => (versionId ? `dashboards/${dashboardId}/${versionId}` : `dashboards/${dashboardId}`);

/** An uploaded `.tar.gz` as multer left it on disk. */
export interface UploadedBundle {
  path: string;
  sizeBytes: number;
}

/**
 * Part 2 rule 8 for one dashboard: its owners always; anyone signed in when it is public or
 * unlisted; granted tenants when it is organization-only; nobody else (private).
 * `DashboardRepository.list` states the rule for lists.
 */
export async function canSee(repo: DashboardRepository, identity: Identity, { dashboard }: DashboardWithActive): Promise<boolean> {
  if (belongsTo(identity, dashboard.ownerTenantId)) return true;
  if (dashboard.visibility === 'public' || dashboard.visibility === 'unlisted') return true;
  return dashboard.visibility === 'organization' && (await repo.isGranted(dashboard.id, tenantIdsOf(identity)));
}

export interface DashboardServiceOptions {
  db: Db;
  blobs: BlobStore;
  events: EventOutbox;
  bus: Bus;
  log: Logger;
  /** The dashboard origin bundle URLs point to (`https://dash.example.com`); empty with one origin. */
  bundleOrigin?: string;
}

/** Dashboards: create, list, read, upload versions, grant, revoke, delete (Part 2 rules 1-8). */
export class DashboardService {
  private readonly repo: DashboardRepository;

  private readonly db: Db;
  private readonly blobs: BlobStore;
  private readonly events: EventOutbox;
  private readonly bus: Bus;
  private readonly log: Logger;
  private readonly bundleOrigin: string;
  private readonly recentlyRead = new RecentDashboards();

  constructor(options: DashboardServiceOptions) {
    ({ db: this.db, blobs: this.blobs, events: this.events, bus: this.bus, log: this.log } = options);
    this.bundleOrigin = options.bundleOrigin ?? '';
    this.repo = new DashboardRepository(this.db);
  }

  /** Where a version's files are read with `base`: on the dashboard origin when there is one. */
  bundleUrl(base: BundleBase, version: string): string {
    return bundleUrlOf(base, version, this.bundleOrigin);
  }

  /** The spec's Dashboard, its `entryPoint` read with `base` (by slug unless said otherwise). */
  view(found: DashboardWithActive, base: BundleBase = { slug: found.dashboard.slug }) {
    return dashboardView(found, base, this.bundleOrigin);
  }

  async create(identity: Identity, body: z.infer<typeof CreateDashboardBody>) {
    requireDeveloperMode(identity, 'create dashboards');
    const ownerTenantId = tenantOfNamespace(identity, body.scope.slice(1));
    if (!ownerTenantId) {
      throw new PermissionError(`Scope ${body.scope} is neither your tenant's nor one of your organizations'`, { field: 'scope', reason: 'scope_mismatch', scope: body.scope });
    }
    try {
      const created = await this.repo.create({
        ownerTenantId,
        scope: body.scope,
        name: body.name,
        slug: body.name,
        description: body.description,
        category: body.category ?? null,
        visibility: body.visibility,
        createdBy: identity.userId,
      });
      return createdView(created);
    } catch (err) {
      if (violatedUniqueConstraint(err) === undefined) throw err;
      throw new ConflictError(`A dashboard named "${body.name}" already exists`, { field: 'name', reason: 'dashboard_exists', scope: body.scope, name: body.name });
    }
  }

  async list(identity: Identity) {
    return (await this.repo.list(tenantIdsOf(identity))).map((found) => this.view(found));
  }

  /**
   * The dashboard with this slug when the caller may see it (404 otherwise, never 403).
   * `recent`: the row may have been read up to RECENT_DASHBOARD_MS ago (for bundle files,
   * which never read its active version); whether the caller may see it is decided anew.
   */
  async visibleBySlug(identity: Identity, slug: string, { recent = false } = {}): Promise<DashboardWithActive> {
    const load = () => this.repo.findBySlug(slug);
    const found = await (recent ? this.recentlyRead.get(slug, load) : load());
    if (!found || !(await canSee(this.repo, identity, found))) throw dashboardNotFound({ slug });
    return found;
  }

  async get(identity: Identity, slug: string) {
    return this.view(await this.visibleBySlug(identity, slug));
  }

  /** The dashboard with this id when the caller may see it (404 otherwise): what a view token names. */
  async visibleById(identity: Identity, dashboardId: string): Promise<DashboardWithActive> {
    const found = await this.repo.findById(dashboardId);
    if (!found || !(await canSee(this.repo, identity, found))) throw dashboardNotFound({ dashboard_id: dashboardId });
    return found;
  }

  /**
   * The dashboard when the caller's tenant owns it. Whoever may see it but does not own it is
   * refused (403); for anyone else it does not exist (404), so private dashboards cannot be probed.
   */
  async owned(identity: Identity, dashboardId: string, action: string): Promise<DashboardWithActive> {
    const found = await this.repo.findById(dashboardId);
    const details = { dashboard_id: dashboardId };
    if (!found) throw dashboardNotFound(details);
    if (belongsTo(identity, found.dashboard.ownerTenantId)) return found;
    if (await canSee(this.repo, identity, found)) throw notOwner(action, details);
    throw dashboardNotFound(details);
  }

  /**
   * Extracts the bundle, stores its files, then creates the version and deactivates the
   * earlier ones in one transaction (Part 2 rule 4). Whatever fails, the version's files are
   * removed again and no row is left.
   */
  async upload(identity: Identity, dashboardId: string, bundle: UploadedBundle, fields: z.infer<typeof UploadVersionFields>) {
    const { dashboard } = await this.owned(identity, dashboardId, 'upload versions of');
    const packDependencies = parsePackDependencies(fields.pack_dependencies);
    await this.requireGreater(dashboard.id, fields.version);
    const versionId = randomUUID();
    const prefix = bundlePrefix(dashboard.id, versionId);
    try {
      const inventory = await extractBundle(bundle.path, this.blobs, prefix);
      const created = await this.db.transaction(async (tx) => {
        const repo = new DashboardRepository(tx);
        if (!(await repo.lock(dashboard.id))) throw dashboardNotFound({ dashboard_id: dashboard.id });
        await this.requireGreater(dashboard.id, fields.version, repo);
        return repo.addActiveVersion(
          {
            id: versionId,
            dashboardId: dashboard.id,
            version: fields.version,
            entryPoint: ENTRY_POINT,
            minSdkVersion: fields.min_sdk_version,
            packDependencies,
            bundleSizeBytes: bundle.sizeBytes,
            createdBy: identity.userId,
          },
          inventory,
        );
      });
      return versionView(created);
    } catch (err) {
      await this.blobs.deletePrefix(prefix).catch((e: Error) => this.log.error('files of a failed dashboard upload not removed', { prefix, error: e.message }));
      throw err;
    }
  }

  /** 409 unless `version` is greater than every version uploaded before. */
  private async requireGreater(dashboardId: string, version: string, repo = this.repo): Promise<void> {
    const latest = semver.maxSatisfying((await repo.versionsOf(dashboardId)).map((v) => v.version), '*', { includePrerelease: true });
    if (latest && !semver.gt(version, latest)) throw versionNotGreater(version, latest);
  }

  /** Grants an organization-visibility dashboard to tenants that exist (Part 2 rule 6). */
  async grant(identity: Identity, dashboardId: string, body: z.infer<typeof DashboardGrantBody>) {
    const { dashboard } = await this.owned(identity, dashboardId, 'grant');
    if (dashboard.visibility !== 'organization') {
      throw new ValidationError(`Only organization dashboards are granted; this one is ${dashboard.visibility}`, { field: 'visibility', reason: 'wrong_visibility', visibility: dashboard.visibility });
    }
    const tenantIds = await this.resolveTenants(body);
    await this.repo.grant(dashboard.id, tenantIds, identity.userId);
    return { granted: tenantIds.length, dashboard_id: dashboard.id };
  }

  /** Removes grants of tenants named by id or scope; names that hold no grant are not an error. */
  async revoke(identity: Identity, dashboardId: string, body: z.infer<typeof DashboardGrantBody>) {
    const { dashboard } = await this.owned(identity, dashboardId, 'revoke grants of');
    const tenantIds = await this.resolveTenants(body);
    return { revoked: await this.repo.revoke(dashboard.id, tenantIds), dashboard_id: dashboard.id };
  }

  /** The ids of the tenants the body names; 400 listing those that do not exist. */
  private async resolveTenants(body: z.infer<typeof DashboardGrantBody>): Promise<string[]> {
    const slugs = body.scopes.map((scope) => scope.slice(1));
    const { tenants } = await this.bus.request(FIND_TENANTS_RPC, { tenant_ids: body.tenant_ids, slugs });
    const unknownIds = body.tenant_ids.filter((id) => !tenants.some((t) => t.id === id));
    const unknownScopes = body.scopes.filter((scope) => !tenants.some((t) => t.slug === scope.slice(1)));
    if (unknownIds.length > 0 || unknownScopes.length > 0) {
      throw new ValidationError('No such tenant: grants go to tenants that exist', { field: unknownIds.length > 0 ? 'tenant_ids' : 'scopes', reason: 'unknown_tenant', unknown_tenant_ids: unknownIds, unknown_scopes: unknownScopes });
    }
    return [...new Set(tenants.map((t) => t.id))];
  }

  /**
   * Deletes the dashboard with its versions, grants and share links, and writes
   * `dashboard.deleted` in the same transaction; the bundle files go once it has committed.
   */
  async delete(identity: Identity, dashboardId: string) {
    requireDeveloperMode(identity, 'delete dashboards');
    const found = await this.repo.findById(dashboardId);
    // Only the owning tenant learns that it exists (Part 2 rule 7: 404 when not owned).
    if (!found || !belongsTo(identity, found.dashboard.ownerTenantId)) throw dashboardNotFound({ dashboard_id: dashboardId });
    const { dashboard } = found;
    await this.events.transaction(async (tx, out) => {
      const versionsRemoved = await new DashboardRepository(tx).delete(dashboard.id);
      out.publish('dashboard.deleted', {
        dashboard_id: dashboard.id,
        tenant_id: dashboard.ownerTenantId,
        scope: dashboard.scope.replace(/^@/, ''),
        name: dashboard.name,
        versions_removed: versionsRemoved,
        occurred_at: new Date().toISOString(),
      });
    });
    this.recentlyRead.forget(dashboard.slug);
    await this.blobs.deletePrefix(bundlePrefix(dashboard.id)).catch((e: Error) => this.log.error('bundle files of a deleted dashboard not removed', { dashboard_id: dashboard.id, error: e.message }));
    return { message: `Dashboard ${dashboard.scope}/${dashboard.name} deleted` };
  }
}

/** The `pack_dependencies` field: JSON of `[{scope, name, version}]` with semver ranges. */
function parsePackDependencies(text: string | undefined) {
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ValidationError('pack_dependencies must be JSON: [{"scope": "@acme", "name": "tools", "version": ">=2.0.0"}]', { field: 'pack_dependencies' });
  }
  const dependencies = parseInput(PackDependencies, json, 'pack_dependencies');
  const bad = dependencies.find((d) => semver.validRange(d.version) === null);
  if (bad) throw new ValidationError(`pack_dependencies: "${bad.version}" is not a semver range such as ">=2.0.0"`, { field: 'pack_dependencies', value: bad.version });
  return dependencies;
}
