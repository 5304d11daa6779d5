import { dataOf, type SvcClient } from '@svc/client';
import type { DashboardVisibility, ShareExpiry } from '../choices.js';
import type { Context } from '../context.js';
import { asCliError, CliError, DEVELOPER_MODE_HINT, validationError } from '../errors.js';
import { dashboardNameProblem, findDashboardDir } from '../dashboard/manifest.js';
import { validateDashboard } from './dashboard-local.js';

/** A dashboard as the platform answers it (dashboard service README). */
interface Dashboard {
  id: string;
  slug: string;
  scope: string;
  name: string;
  visibility: string;
  version: string | null;
}

/**
 * The dashboard a slug names (also written `@scope/slug`, the way `secrets` names packs); a
 * CliError "Dashboard not found" when the caller cannot see it.
 */
async function dashboardOf(svc: SvcClient, given: string): Promise<Dashboard> {
  const slug = given.replace(/^@[a-z0-9-]+\//, '');
  const problem = dashboardNameProblem(slug);
  if (problem) throw validationError(`Invalid dashboard name: "${slug}" ${problem}`, { code: 'NAME_INVALID', details: { name: slug } });
  try {
    return (await dataOf(svc.api.GET('/api/v1/dashboards/{dashboard}', { params: { path: { dashboard: slug } } }))) as Dashboard;
  } catch (err) {
    const failure = asCliError(err);
    if (failure.code === 'NOT_FOUND') throw new CliError('general', `Dashboard not found: ${slug}`, { code: 'NOT_FOUND', details: failure.details });
    throw failure;
  }
}

/** `@partner` or `partner`, as the scope the platform takes. */
function scopeOf(organization: string): string {
  const scope = organization.startsWith('@') ? organization : `@${organization}`;
  if (!/^@[a-z0-9][a-z0-9-]*$/.test(scope)) throw validationError(`"${organization}" is not an organization scope such as @partner`, { code: 'SCOPE_INVALID', details: { organization } });
  return scope;
}

/**
 * `svc dashboard publish`: the built dashboard of this folder (every check of `validate` first)
 * uploaded as a new version, the dashboard registered on its first publish.
 */
export async function publish(ctx: Context, options: { visibility?: string; dryRun?: boolean }): Promise<void> {
  const dir = await findDashboardDir(ctx.io.cwd);
  const { manifest, tarball, files } = await validateDashboard(dir);
  const visibility = options.visibility ?? manifest.visibility ?? 'private';
  const svc = ctx.client();
  const existing = await dashboardOf(svc, manifest.name).catch((err: unknown) => {
    if (asCliError(err).code === 'NOT_FOUND') return undefined;
    throw err;
  });
  const summary = { name: manifest.name, scope: manifest.namespace, version: manifest.version, visibility: existing?.visibility ?? visibility, files, size_bytes: tarball.length };
  if (options.dryRun) {
    ctx.out.result({ dry_run: true, registered: Boolean(existing), ...summary }, `Would publish ${manifest.name} ${manifest.version} (${files} files, ${tarball.length} bytes) to @${manifest.namespace}${existing ? '' : ` as a new ${visibility} dashboard`}; nothing was uploaded.`);
    return;
  }
  if (existing && options.visibility && options.visibility !== existing.visibility) {
    ctx.out.warn(`${manifest.name} stays ${existing.visibility}: --visibility applies when a dashboard is first published`);
  }
  const progress = ctx.out.progress(`Publishing ${manifest.name} ${manifest.version}`);
  try {
    const dashboard =
      existing ??
      ({
        version: null,
        ...(await dataOf(
          svc.api.POST('/api/v1/dashboards', {
            body: { scope: `@${manifest.namespace}`, name: manifest.name, description: manifest.description, visibility: visibility as DashboardVisibility, ...(manifest.category ? { category: manifest.category } : {}) },
          }),
        )),
      } satisfies Dashboard);
    const form = new FormData();
    form.append('bundle', new Blob([tarball], { type: 'application/gzip' }), `${manifest.name}-${manifest.version}.tar.gz`);
    form.append('version', manifest.version);
    if (manifest.min_sdk_version) form.append('min_sdk_version', manifest.min_sdk_version);
    if (manifest.pack_dependencies?.length) form.append('pack_dependencies', JSON.stringify(manifest.pack_dependencies));
    const version = await svc.upload<Record<string, unknown>>('POST', `/api/v1/dashboards/${encodeURIComponent(dashboard.id)}/versions`, form);
    progress.succeed(`Published ${manifest.name} ${manifest.version}`);
    ctx.out.result(
      { dry_run: false, registered: !existing, dashboard: { id: dashboard.id, slug: dashboard.slug, scope: dashboard.scope, visibility: dashboard.visibility }, version },
      `Published ${dashboard.slug} ${manifest.version} (${dashboard.visibility}).${dashboard.visibility === 'organization' ? `\nNext: svc dashboard grant ${dashboard.slug} @partner` : ''}`,
    );
  } catch (err) {
    progress.fail();
    throw err;
  }
}

export async function grant(ctx: Context, slug: string, organization: string, revoke: boolean): Promise<void> {
  const svc = ctx.client();
  const scope = scopeOf(organization);
  const dashboard = await dashboardOf(svc, slug);
  const request = { params: { path: { dashboard_id: dashboard.id } }, body: { scopes: [scope] } };
  const answer: { granted?: number; revoked?: number } = revoke ? await dataOf(svc.api.DELETE('/api/v1/dashboards/{dashboard_id}/grant', request)) : await dataOf(svc.api.POST('/api/v1/dashboards/{dashboard_id}/grant', request));
  const data = { dashboard: dashboard.slug, dashboard_id: dashboard.id, organization: scope, ...answer };
  if (revoke) ctx.out.result(data, answer.revoked ? `${scope} no longer sees ${dashboard.slug}.` : `${scope} had no grant to ${dashboard.slug}.`);
  else ctx.out.result(data, `${scope} may see ${dashboard.slug}.`);
}

/** `svc dashboard delete`, with the spec's messages: invalid name, not found, developer mode required, delete failed. */
export async function remove(ctx: Context, slug: string, options: { force?: boolean }): Promise<void> {
  const svc = ctx.client();
  const dashboard = await dashboardOf(svc, slug);
  if (!options.force && !(await ctx.confirm(`Delete ${dashboard.slug} with all its versions, grants and share links?`))) {
    throw new CliError('general', 'Not deleted', { code: 'DECLINED' });
  }
  try {
    const { message } = (await dataOf(svc.api.DELETE('/api/v1/dashboards/{dashboard}', { params: { path: { dashboard: dashboard.id } } }))) as { message: string };
    ctx.out.result({ deleted: true, dashboard: dashboard.slug, dashboard_id: dashboard.id, message }, message);
  } catch (err) {
    const failure = asCliError(err);
    const { details } = failure;
    if (details?.reason === 'developer_mode_required') throw new CliError(failure.kind, `Developer mode required to delete ${slug}: ${DEVELOPER_MODE_HINT}`, { code: failure.code, details });
    if (failure.code === 'NOT_FOUND') throw new CliError(failure.kind, `Dashboard not found: ${slug} (or not your tenant's)`, { code: failure.code, details });
    throw new CliError(failure.kind, `Delete failed: ${failure.message}`, { code: failure.code, details });
  }
}

export async function share(ctx: Context, slug: string, options: { expires: ShareExpiry }): Promise<void> {
  const svc = ctx.client();
  const dashboard = await dashboardOf(svc, slug);
  const link = (await dataOf(svc.api.POST('/api/v1/dashboards/{dashboard_id}/shares', { params: { path: { dashboard_id: dashboard.id } }, body: { expires: options.expires } }))) as { id: string; token: string; url: string; expires_at: string | null };
  const url = new URL(link.url, `${ctx.apiUrl}/`).toString();
  ctx.out.result({ dashboard: dashboard.slug, ...link, url }, `${url}\n(${link.expires_at ? `expires ${link.expires_at}` : 'does not expire'}; anyone with the link sees ${dashboard.slug})`);
}
