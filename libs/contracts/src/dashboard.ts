import { z } from 'zod';
import { Timestamp } from './responses.js';
import { IdentitySchema } from '@svc/auth';

/**
 * A dashboard was deleted with its versions, grants, share links and files. `scope` is without
 * its `@`, as the dashboard service returns it; `tenant_id` is the owning tenant, so that its
 * webhooks (and only its) hear of it.
 */
export const DashboardDeleted = z.object({
  dashboard_id: z.string(),
  tenant_id: z.string(),
  scope: z.string(),
  name: z.string(),
  versions_removed: z.number().int().min(0),
  occurred_at: z.string(),
});

/** Largest bundle upload (the `.tar.gz` itself): Part 2, "Limits". */
export const DASHBOARD_BUNDLE_MAX_BYTES = 50 * 1024 * 1024;
/** Most files a bundle may hold: Part 2, "Limits". */
export const DASHBOARD_BUNDLE_MAX_FILES = 500;
/** Largest uncompressed total of a bundle's files: refuses a gzip bomb while it is read. */
export const DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;
/** Largest request body of the upload route, which the gateway lets through (multipart framing around the bundle). */
export const DASHBOARD_UPLOAD_BODY_LIMIT_BYTES = DASHBOARD_BUNDLE_MAX_BYTES + 64 * 1024;
/** Multipart field that carries the bundle in `POST /api/v1/dashboards/{dashboard_id}/versions`. */
export const DASHBOARD_BUNDLE_FIELD = 'bundle';

export const DASHBOARD_VISIBILITIES = ['public', 'unlisted', 'organization', 'private'] as const;
export type DashboardVisibility = (typeof DASHBOARD_VISIBILITIES)[number];
export const SHARE_EXPIRIES = ['1d', '7d', '30d', 'never'] as const;

/** A semver version in its canonical form (no `v`, no spaces): `1.4.0`, `2.0.0-beta.1`. */
export const SemverVersion = z
  .string()
  .max(64)
  .regex(/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/, 'must be a semver version such as 1.2.0');

export const DashboardName = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(50, 'must be at most 50 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be kebab-case: a-z, 0-9 and single "-" between them');

/** A scope as clients send it: `@` and the slug of the caller's tenant or one of its organizations. */
export const DashboardScope = z.string().max(40).regex(/^@[a-z0-9][a-z0-9-]*$/, 'must be "@" and a tenant or organization slug, e.g. "@acme"');

export const CreateDashboardBody = z.strictObject({
  scope: DashboardScope,
  name: DashboardName,
  description: z.string().max(200, 'must be at most 200 characters').default(''),
  category: z.string().min(1).max(50).regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and "-", e.g. analytics').optional(),
  visibility: z.enum(DASHBOARD_VISIBILITIES).default('private'),
});

export const DashboardId = z.uuid('must be a dashboard id (uuid)');
export const ShareId = z.uuid('must be a share link id (uuid)');

/** Whom a grant or revocation names: tenant ids, organization scopes (`@partner`), or both. */
export const DashboardGrantBody = z
  .strictObject({
    tenant_ids: z.array(z.uuid('must be a tenant id (uuid)')).max(100).default([]),
    scopes: z.array(DashboardScope).max(100).default([]),
  })
  .refine((body) => body.tenant_ids.length + body.scopes.length > 0, { message: 'name at least one tenant in tenant_ids or scopes', path: ['tenant_ids'] });

export const CreateShareBody = z.strictObject({ expires: z.enum(SHARE_EXPIRIES).default('never') });

/** Fields of the upload besides the bundle. */
export const UploadVersionFields = z.strictObject({
  version: SemverVersion,
  min_sdk_version: SemverVersion.default('1.0.0'),
  /** JSON text: `[{scope, name, version}]`, the packs the dashboard calls and the version ranges it needs. */
  pack_dependencies: z.string().max(10_000).optional(),
});

export const PackDependency = z.strictObject({
  scope: z.string().regex(/^@?[a-z0-9][a-z0-9-]*$/, 'must be a scope such as "@acme"').max(40).transform((scope) => scope.replace(/^@/, '')),
  name: z.string().min(1).max(64).regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a pack name'),
  version: z.string().min(1).max(64),
});
export const PackDependencies = z.array(PackDependency).max(50);

export const Dashboard = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.string().nullable().meta({ description: 'The active version; null before the first upload.' }),
  entryPoint: z.string().nullable().meta({ description: 'URL of the active version\'s main.js, to pass to a dynamic `import()`: on the dashboard origin (`SVC_DASHBOARD_ORIGIN`) when there is one, else the URL path on this origin; null before the first upload.' }),
  minSdkVersion: z.string().nullable(),
  scope: z.string().meta({ description: 'Without `@`.' }),
  category: z.string().nullable(),
  visibility: z.enum(DASHBOARD_VISIBILITIES),
  packDependencies: z.array(z.object({
    scope: z.string(),
    name: z.string(),
    version: z.string().meta({ description: 'A semver range, e.g. `>=2.0.0`.' }),
  })),
  created_at: Timestamp,
}).meta({ id: 'Dashboard', description: 'A dashboard as the caller may see it.' });
export type Dashboard = z.infer<typeof Dashboard>;

export const DashboardVersion = z.object({
  id: z.uuid(),
  dashboard_id: z.uuid(),
  version: z.string(),
  entry_point: z.literal('main.js'),
  min_sdk_version: z.string(),
  bundle_size_bytes: z.number().int().min(0).meta({ description: 'Size of the uploaded .tar.gz.' }),
  is_active: z.boolean(),
  created_at: Timestamp,
}).meta({ id: 'DashboardVersion' });
export type DashboardVersion = z.infer<typeof DashboardVersion>;

export const DashboardViewToken = z.object({
  token: z.string().meta({ description: 'Signed; names the dashboard, the viewer and their session, and its expiry.' }),
  dashboard_id: z.uuid(),
  version: z.string().nullable().meta({ description: 'The active version; null before the first upload.' }),
  base_url: z.string().nullable().meta({ description: 'Where the active version\'s files are read with the token, on the dashboard origin when there is one: `{origin}/api/v1/dashboard-views/{token}/bundle/{version}`.' }),
  entryPoint: z.string().nullable().meta({ description: '`base_url` + `/main.js`: what the dashboard\'s frame imports.' }),
  expires_at: Timestamp,
}).meta({ id: 'DashboardViewToken', description: 'A view token: the credential of a dashboard frame on the dashboard origin, which never holds the viewer\'s access or refresh token.' });
export type DashboardViewToken = z.infer<typeof DashboardViewToken>;

export const DashboardShare = z.object({
  id: z.uuid(),
  dashboard_id: z.uuid(),
  token: z.string().meta({ description: 'Signed; carries the link\'s id and expiry.' }),
  url: z.string().meta({ description: 'URL path of the shared dashboard\'s metadata: `/api/v1/shared-dashboards/{token}`.' }),
  expires_at: Timestamp.nullable(),
  created_at: Timestamp,
}).meta({ id: 'DashboardShare' });
export type DashboardShare = z.infer<typeof DashboardShare>;

/** `POST /api/v1/dashboards`. */
export const CreatedDashboard = z.object({
  id: z.uuid(),
  scope: z.string(),
  name: z.string(),
  slug: z.string(),
  visibility: z.enum(DASHBOARD_VISIBILITIES),
  created_at: Timestamp,
});
export type CreatedDashboard = z.infer<typeof CreatedDashboard>;

/** `POST /api/v1/dashboards/{id}/grants`. */
export const DashboardGranted = z.object({
  granted: z.number().int().min(0).meta({ description: 'Distinct tenants that hold a grant from this request.' }),
  dashboard_id: z.uuid(),
});

/** `DELETE /api/v1/dashboards/{id}/grants`. */
export const DashboardGrantsRevoked = z.object({
  revoked: z.number().int().min(0).meta({ description: 'Grants removed.' }),
  dashboard_id: z.uuid(),
});

/** A share link revoked. */
export const DashboardShareRevoked = z.object({
  revoked: z.literal(true),
  id: z.uuid(),
  dashboard_id: z.uuid(),
});

/**
 * A dashboard's entry module, for an MCP App that shows it in an agent's host: the active
 * version's `main.js` when the caller may see the dashboard, else null (no such dashboard, no
 * access, no version yet, or a module larger than `DASHBOARD_APP_MAX_BYTES`).
 */
export const READ_DASHBOARD_APP_RPC = 'dashboard.app.read';
/** The largest `main.js` an MCP App inlines: its page carries the module, since hosts let it load nothing. */
export const DASHBOARD_APP_MAX_BYTES = 2 * 1024 * 1024;
export const ReadDashboardAppRequest = z.object({ identity: IdentitySchema, slug: z.string().max(50) });
export const DashboardApp = z.object({
  app: z
    .object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      /** With its `@`. */
      scope: z.string(),
      version: z.string(),
      version_id: z.string(),
      main_js: z.string(),
    })
    .nullable(),
});
export type DashboardApp = z.infer<typeof DashboardApp>;
