import { isDeepStrictEqual } from 'node:util';
import { SVC_VERSION } from '@svc/contracts';
import {
  sharedComponents,
  type OpenAPIObject,
  type OpenApiFragment,
  type OperationObject,
  type PathItemObject,
  type PathsObject,
  type ResponsesObject,
  type SecurityRequirementObject,
  type SecuritySchemeName,
  type TagObject,
} from '@svc/openapi';
// Each service owns the description of what it serves; only these declarative modules are imported.
import { adminOpenApi } from '@svc/admin/openapi';
import { billingOpenApi } from '@svc/billing/openapi';
import { notifyOpenApi } from '@svc/notify/openapi';
import { executionOpenApi } from '@svc/execution/openapi';
import { identityOpenApi } from '@svc/identity/openapi';
import { registryOpenApi } from '@svc/registry/openapi';
import { sshOpenApi } from '@svc/ssh/openapi';
import { storageOpenApi } from '@svc/storage/openapi';
import { dashboardOpenApi } from '@svc/dashboard/openapi';
import { findRoute, ROUTES, type AuthPolicy, type RouteRule } from '../routing/route-table.js';
import { gatewayOpenApi } from './gateway-fragment.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Every fragment of the public API: the gateway's own first, then one per service. */
export const OPENAPI_FRAGMENTS: OpenApiFragment[] = [gatewayOpenApi, identityOpenApi, registryOpenApi, executionOpenApi, storageOpenApi, adminOpenApi, billingOpenApi, notifyOpenApi, dashboardOpenApi, sshOpenApi];

const SECURITY: Record<AuthPolicy, SecuritySchemeName[]> = {
  public: [],
  jwt: ['bearerAuth'],
  'jwt-or-key': ['bearerAuth', 'apiKey'],
  'key-or-oauth': ['apiKey', 'oauthToken'],
  // The token is a path parameter, described by the operation; it is no scheme of its own.
  'view-token': [],
};

const DESCRIPTION = `Every endpoint of the svc platform, as clients reach it through the gateway.

- **Envelope:** success bodies are \`{data, meta?}\` (task endpoints add \`success: true\`; \`/health\` is a bare object; the command list adds \`pagination\`).
- **Errors:** every failure is \`{success: false, error: {type, message, code, details, correlation_id, timestamp}}\`, with \`error.retry_after\` on a 429.
- **Authentication:** \`Authorization: Bearer <access token>\` (a JWT from register, login or refresh) or, where an operation lists \`apiKey\`, an API key \`sk-svc-…\`.
- **Rate limits:** every answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (before the caller is known, those of the client address's budget); a refusal is a 429 with \`Retry-After\`.
- **Refused early:** \`OPTIONS\` is 405 \`METHOD_NOT_ALLOWED\` with \`Allow\`; headers over 16 KiB are 431 \`HEADERS_TOO_LARGE\`; a JSON body nested more than 64 levels deep, or not decodable as its \`Content-Encoding\` says, is 400 \`VALIDATION_FAILED\`.
- **Correlation:** \`X-Request-Id\` is accepted (1-128 of \`[A-Za-z0-9._:-]\`) or generated, and echoed on every answer.`;

export interface DocumentedOperation {
  method: HttpMethod;
  template: string;
  operation: OperationObject;
}

/** Every operation of a document's (or a fragment's) paths. */
export function operationsOf(paths: PathsObject = {}): DocumentedOperation[] {
  return Object.entries(paths as Record<string, PathItemObject>).flatMap(([template, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ method, template, operation: item[method] as OperationObject })),
  );
}

/** A concrete path for a template, to ask the route table who serves it. */
export function samplePath(template: string): string {
  return template.replace(/\{[^}]+\}/g, 'x');
}

/** The rule the gateway applies to an operation of a service fragment. */
export function routeOf(method: string, template: string, routes: RouteRule[] = ROUTES): RouteRule | undefined {
  return findRoute(method.toUpperCase(), samplePath(template), routes);
}

/** The security schemes the gateway accepts under each route policy. */
export function schemesOf(policy: AuthPolicy): SecuritySchemeName[] {
  return SECURITY[policy];
}

/**
 * What the gateway adds to a service's operation: the credentials its route accepts, the 401 of
 * authenticated routes and the 429 of limited ones, and the error body for any other failure.
 * Fragments keep the answers they describe themselves (login's own 401, say).
 */
function withGatewayPolicy(operation: OperationObject, rule: RouteRule | undefined): OperationObject {
  const responses: ResponsesObject = { ...operation.responses };
  let security: SecurityRequirementObject[] = [];
  if (rule) {
    // A fragment may narrow what its route lets through (key management lets keys in to refuse them).
    security = operation.security ?? SECURITY[rule.auth].map((scheme) => ({ [scheme]: [] }));
    // Where OAuth tokens are taken, every 401 names the way to get one.
    if (rule.auth !== 'public') responses[401] ??= { $ref: `#/components/responses/${rule.auth === 'key-or-oauth' ? 'UnauthenticatedWithChallenge' : 'Unauthenticated'}` };
    // Public routes are limited per client address, every other route per user.
    if (rule.auth !== 'public' || rule.ipLimit) responses[429] ??= { $ref: '#/components/responses/RateLimited' };
  }
  responses.default ??= { $ref: '#/components/responses/Error' };
  return { ...operation, security, responses };
}

function mergeFragment(document: OpenAPIObject, fragment: OpenApiFragment, routes: RouteRule[]): void {
  const schemas = document.components!.schemas!;
  for (const [name, schema] of Object.entries(fragment.schemas ?? {})) {
    // Two fragments may carry the same contract (one's answers contain the other's): written alike, it is one schema.
    if (schemas[name] && !isDeepStrictEqual(schemas[name], schema)) throw new Error(`OpenAPI schema "${name}" of ${fragment.service} is already defined`);
    schemas[name] = schema;
  }
  const tags = document.tags as TagObject[];
  for (const tag of fragment.tags) {
    if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
  }
  const paths = document.paths as PathsObject;
  for (const { method, template, operation } of operationsOf(fragment.paths)) {
    const merged: PathItemObject = (paths[template] ??= {});
    if (merged[method]) throw new Error(`OpenAPI operation ${method.toUpperCase()} ${template} is described twice (${fragment.service})`);
    merged[method] = withGatewayPolicy(operation, fragment.service === 'gateway' ? undefined : routeOf(method, template, routes));
  }
}

/**
 * The public OpenAPI 3.0 document: every fragment merged, the shared components added, and
 * each operation's security taken from the gateway's route table, so the two cannot disagree.
 *
 * @example
 *   app.use(docsRoutes(buildOpenApiDocument()));
 */
export function buildOpenApiDocument(fragments: OpenApiFragment[] = OPENAPI_FRAGMENTS, routes: RouteRule[] = ROUTES): OpenAPIObject {
  const document: OpenAPIObject = {
    openapi: '3.0.3',
    info: { title: 'svc API', version: SVC_VERSION, description: DESCRIPTION },
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    security: [],
    tags: [],
    paths: {},
    components: sharedComponents(),
  };
  for (const fragment of structuredClone(fragments)) mergeFragment(document, fragment, routes);
  return document;
}
