import { z } from 'zod';
import {
  CreateDashboardBody,
  CreatedDashboard,
  CreateShareBody,
  Dashboard,
  DASHBOARD_BUNDLE_FIELD,
  DASHBOARD_BUNDLE_MAX_BYTES,
  DASHBOARD_BUNDLE_MAX_FILES,
  DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES,
  DashboardGrantBody,
  DashboardGranted,
  DashboardGrantsRevoked,
  DashboardId,
  DashboardShare,
  DashboardShareRevoked,
  DashboardVersion,
  DashboardViewToken,
  ShareId,
} from '@svc/contracts';
import {
  componentSchemas,
  dataResponse,
  errorResponse,
  fromZod,
  jsonBody,
  object,
  pathParameter,
  ref,
  string,
  type OpenApiFragment,
  type ParameterObject,
  type ResponseObject,
} from '@svc/openapi';

const dashboardId = pathParameter('dashboard_id', fromZod(DashboardId), 'The dashboard\'s id.');
const slug = pathParameter('slug', string({ maxLength: 200 }), 'The dashboard\'s slug (its name).');
/** `GET` reads by slug and `DELETE` removes by id at the same place of the path (the spec's two paths). */
const slugOrId = (what: string) => pathParameter('dashboard', string({ maxLength: 200 }), what);
const shareToken = pathParameter('token', string({ maxLength: 300 }), 'The share link\'s token (`dsh_…`).');
const viewToken = pathParameter('token', string({ maxLength: 500 }), 'A view token (`dvt_…`) minted by `POST /api/v1/dashboards/{slug}/view-tokens`.');
const bundleFile: ParameterObject[] = [
  pathParameter('version', string({ maxLength: 64 }), 'A version of the dashboard (semver), active or not.'),
  pathParameter('path', string({ maxLength: 1000 }), 'The file\'s path inside the bundle; may hold `/` (`assets/app.css`).'),
];
const badId = errorResponse('`VALIDATION_FAILED`: a malformed dashboard id (`details.field: dashboard_id`).');
const notFound = errorResponse('`NOT_FOUND`: no such dashboard, or the caller may not see it.');
const notOwner = errorResponse('`PERMISSION_DENIED` (`details.reason: not_dashboard_owner`): the caller sees the dashboard but its tenant does not own it.');

const fileResponse = (what: string): ResponseObject => ({
  description: `${what} \`Content-Type\` by extension, \`Cache-Control: private, max-age=31536000, immutable\`, \`ETag\` (the file's SHA-256), \`Accept-Ranges: bytes\`, \`X-Content-Type-Options: nosniff\`. On the API's origin a file is inert (\`Content-Security-Policy: sandbox; default-src 'none'\`, and \`Content-Disposition: attachment\` unless a script, style sheet, image or font); on the dashboard origin it runs sandboxed in an opaque origin, readable by any origin without credentials.`,
  content: { '*/*': { schema: string({ format: 'binary' }) } },
});
const fileResponses = (missing: string) => ({
  200: fileResponse('The file.'),
  206: fileResponse('One byte range of the file (`Content-Range`), for a `Range: bytes=…` of one satisfiable range; other ranges are ignored and the whole file answers.'),
  304: { description: 'Not modified: `If-None-Match` names the file\'s `ETag`.' },
  404: errorResponse(missing),
});

/** Dashboards: registration, bundle upload and serving, visibility, grants and share links (Part 2). */
export const dashboardOpenApi: OpenApiFragment = {
  service: 'dashboard',
  tags: [{ name: 'Dashboards', description: 'Browser micro-frontends: versioned bundles served immutable, with visibility, grants and share links.' }],
  schemas: componentSchemas(Dashboard, DashboardVersion, DashboardViewToken, DashboardShare),
  paths: {
    '/api/v1/dashboards': {
      post: {
        operationId: 'createDashboard',
        summary: 'Register a dashboard',
        description: 'Developer mode; `scope` is `@` and the slug of the caller\'s tenant or one of its organizations. The slug is the name, unique across the platform.',
        tags: ['Dashboards'],
        requestBody: jsonBody(fromZod(CreateDashboardBody)),
        responses: {
          201: dataResponse('Registered.', CreatedDashboard),
          400: errorResponse('`VALIDATION_FAILED`: a malformed field (`details.field`).'),
          403: errorResponse('`PERMISSION_DENIED`: developer mode required (`details.reason: developer_mode_required`) or a scope not the caller\'s (`scope_mismatch`).'),
          409: errorResponse('`CONFLICT` (`details.reason: dashboard_exists`): a dashboard with this name exists.'),
        },
      },
      get: {
        operationId: 'listDashboards',
        summary: 'Dashboards the caller may see',
        description: 'Public ones, every one of the caller\'s tenants, and organization ones granted to them; unlisted dashboards of other tenants are left out. Ordered by scope, then name.',
        tags: ['Dashboards'],
        responses: { 200: dataResponse('The dashboards.', z.array(Dashboard)) },
      },
    },
    '/api/v1/dashboards/{dashboard_id}/versions': {
      post: {
        operationId: 'uploadDashboardVersion',
        summary: 'Upload a version\'s bundle',
        description: `Owner only. The bundle is a .tar.gz of at most ${DASHBOARD_BUNDLE_MAX_BYTES} bytes with main.js at its root, at most ${DASHBOARD_BUNDLE_MAX_FILES} regular files (no links, devices, absolute paths or \`..\`) unpacking to at most ${DASHBOARD_BUNDLE_MAX_UNCOMPRESSED_BYTES} bytes. The version must be greater than every earlier one; it becomes the only active one.`,
        tags: ['Dashboards'],
        parameters: [dashboardId],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: object(
                {
                  [DASHBOARD_BUNDLE_FIELD]: string({ format: 'binary', description: 'The bundle (.tar.gz).' }),
                  version: string({ maxLength: 64, description: 'Semver, greater than every earlier version.' }),
                  min_sdk_version: string({ maxLength: 64, description: 'Semver; default 1.0.0.' }),
                  pack_dependencies: string({ maxLength: 10000, description: 'JSON: `[{"scope": "@acme", "name": "tools", "version": ">=2.0.0"}]`.' }),
                },
                { optional: ['min_sdk_version', 'pack_dependencies'] },
              ),
              encoding: { [DASHBOARD_BUNDLE_FIELD]: { contentType: 'application/gzip' } },
            },
          },
        },
        responses: {
          201: dataResponse('Uploaded and active.', DashboardVersion),
          400: errorResponse('`VALIDATION_FAILED`: `details.reason` `invalid_tarball` (not gzip, not tar, a link, device, absolute path, `..`, duplicate, too many files: `details.issue`) or `entry_point_not_found`; or a malformed field.'),
          403: notOwner,
          404: notFound,
          409: errorResponse('`CONFLICT` (`details.reason: version_not_greater`): the version is not greater than `details.latest`.'),
          413: errorResponse('`PAYLOAD_TOO_LARGE`: the bundle (`details.reason: bundle_too_large`) or its unpacked files (`uncompressed_too_large`) are too large.'),
        },
      },
    },
    '/api/v1/dashboards/{slug}/bundle/{version}/{path}': {
      get: {
        operationId: 'getDashboardBundleFile',
        summary: 'A file of a dashboard\'s bundle',
        description: 'Visibility as for the dashboard itself; any version uploaded, until the dashboard is deleted.',
        tags: ['Dashboards'],
        parameters: [slug, ...bundleFile],
        responses: fileResponses('`NOT_FOUND`: no such dashboard (or the caller may not see it), version or file; a path leaving the bundle is no file of it.'),
      },
    },
    '/api/v1/dashboards/{slug}/view-tokens': {
      post: {
        operationId: 'createDashboardViewToken',
        summary: 'Mint a view token for a dashboard frame',
        description:
          'For a signed-in viewer (an access token) who may see the dashboard. The token reads that dashboard\'s files, any version, for an hour, while the viewer\'s session lives and the viewer may still see the dashboard; nothing else. The console hands `entryPoint` to a frame on the dashboard origin.',
        tags: ['Dashboards'],
        parameters: [slug],
        responses: {
          201: dataResponse('Minted.', DashboardViewToken),
          403: errorResponse('`PERMISSION_DENIED` (`details.reason: session_required`): the caller is not a signed-in session.'),
          404: notFound,
        },
      },
    },
    '/api/v1/dashboard-views/{token}/bundle/{version}/{path}': {
      get: {
        operationId: 'getDashboardViewFile',
        summary: 'A bundle file through a view token',
        description: 'The credential is the token in the path (no header, no cookie), so that a frame\'s native `import()` can send it. A token that is forged, malformed or expired, or whose session has ended, is a 401.',
        tags: ['Dashboards'],
        parameters: [viewToken, ...bundleFile],
        responses: fileResponses('`NOT_FOUND`: the token is not for this viewer\'s session, the viewer may no longer see the dashboard, or no such version or file.'),
      },
    },
    '/api/v1/dashboards/{dashboard_id}/grant': {
      post: {
        operationId: 'grantDashboard',
        summary: 'Grant an organization dashboard to tenants',
        description: 'Owner only, organization visibility only. Tenants by id (`tenant_ids`, the spec\'s field) or by scope (`scopes`, `@partner`); each must exist. Granting again is not an error.',
        tags: ['Dashboards'],
        parameters: [dashboardId],
        requestBody: jsonBody(fromZod(DashboardGrantBody)),
        responses: {
          200: dataResponse('Granted.', DashboardGranted),
          400: errorResponse('`VALIDATION_FAILED`: not an organization dashboard (`details.reason: wrong_visibility`), an unknown tenant (`unknown_tenant`), or a malformed body.'),
          403: notOwner,
          404: notFound,
        },
      },
      delete: {
        operationId: 'revokeDashboardGrant',
        summary: 'Revoke grants of a dashboard',
        description: 'Owner only. Names tenants as granting does; names without a grant are not an error.',
        tags: ['Dashboards'],
        parameters: [dashboardId],
        requestBody: jsonBody(fromZod(DashboardGrantBody)),
        responses: {
          200: dataResponse('Revoked.', DashboardGrantsRevoked),
          400: errorResponse('`VALIDATION_FAILED`: an unknown tenant or a malformed body.'),
          403: notOwner,
          404: notFound,
        },
      },
    },
    '/api/v1/dashboards/{dashboard}': {
      get: {
        operationId: 'getDashboard',
        summary: 'A dashboard by slug',
        tags: ['Dashboards'],
        parameters: [slugOrId('The dashboard\'s slug (its name).')],
        responses: { 200: dataResponse('The dashboard.', Dashboard), 404: notFound },
      },
      delete: {
        operationId: 'deleteDashboard',
        summary: 'Delete a dashboard',
        description: 'Developer mode, owning tenant. Versions, grants, share links and bundle files go with it; `dashboard.deleted` is published.',
        tags: ['Dashboards'],
        parameters: [slugOrId('The dashboard\'s id (a UUID).')],
        responses: {
          200: dataResponse('Deleted.', ref('Message')),
          400: badId,
          403: errorResponse('`PERMISSION_DENIED` (`details.reason: developer_mode_required`).'),
          404: errorResponse('`NOT_FOUND`: no such dashboard, or not owned by the caller\'s tenant.'),
        },
      },
    },
    '/api/v1/dashboards/{dashboard_id}/shares': {
      post: {
        operationId: 'createDashboardShare',
        summary: 'Create a share link',
        description: 'Owner only. The link reads the dashboard\'s metadata and bundles without an account until it expires (`1d`, `7d`, `30d`, `never`: the default) or is revoked.',
        tags: ['Dashboards'],
        parameters: [dashboardId],
        requestBody: { ...jsonBody(fromZod(CreateShareBody)), required: false },
        responses: { 201: dataResponse('Created.', DashboardShare), 400: badId, 403: notOwner, 404: notFound },
      },
      get: {
        operationId: 'listDashboardShares',
        summary: 'Live share links of a dashboard',
        tags: ['Dashboards'],
        parameters: [dashboardId],
        responses: { 200: dataResponse('Links not expired, newest first.', z.array(DashboardShare)), 400: badId, 403: notOwner, 404: notFound },
      },
    },
    '/api/v1/dashboards/{dashboard_id}/shares/{share_id}': {
      delete: {
        operationId: 'revokeDashboardShare',
        summary: 'Revoke a share link',
        tags: ['Dashboards'],
        parameters: [dashboardId, pathParameter('share_id', fromZod(ShareId), 'The share link\'s id.')],
        responses: {
          200: dataResponse('Revoked: the token opens nothing any more.', DashboardShareRevoked),
          400: errorResponse('`VALIDATION_FAILED`: a malformed id.'),
          403: notOwner,
          404: errorResponse('`NOT_FOUND`: no such dashboard or share link.'),
        },
      },
    },
    '/api/v1/shared-dashboards/{token}': {
      get: {
        operationId: 'getSharedDashboard',
        summary: 'A dashboard through a share link (no account)',
        description: '`entryPoint` points under this share link, so the bundle loads without a JWT.',
        tags: ['Dashboards'],
        parameters: [shareToken],
        responses: { 200: dataResponse('The dashboard.', Dashboard), 404: errorResponse('`NOT_FOUND`: a token that is forged, malformed, expired or revoked.') },
      },
    },
    '/api/v1/shared-dashboards/{token}/bundle/{version}/{path}': {
      get: {
        operationId: 'getSharedDashboardBundleFile',
        summary: 'A bundle file through a share link (no account)',
        tags: ['Dashboards'],
        parameters: [shareToken, ...bundleFile],
        responses: fileResponses('`NOT_FOUND`: a token that is forged, expired or revoked, or no such version or file.'),
      },
    },
  },
};
