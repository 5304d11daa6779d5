import type { ComponentsObject, HeaderObject, ResponseObject, SchemaObject, SecuritySchemeObject } from 'openapi3-ts/oas30';
import { constant, dateTime, freeObject, integer, object, ref, string } from './schema.js';

/** The credentials the gateway accepts; all travel as `Authorization: Bearer …`. */
export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token from register, login or refresh (15 minutes by default).',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk-svc-<64 hex digits>',
    description: 'An API key (`sk-svc-` and 64 hex digits) with the scope `commands:execute`, created with `POST /api/v1/account/api-keys`.',
  },
  oauthToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'An OAuth 2.1 access token for the MCP endpoint (`/mcp` only): from the platform\'s authorization server (`/.well-known/oauth-authorization-server`; authorization code with PKCE, scope `commands:execute`), bound to that resource and to the tenant the user chose. A 401 names the metadata in `WWW-Authenticate`.',
  },
} satisfies Record<string, SecuritySchemeObject>;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

/** Schemas every service's responses share; services add their own next to their paths. */
export const SHARED_SCHEMAS: Record<string, SchemaObject> = {
  /** `errorBody` of `@svc/core`: every failure, whichever service or the gateway answers it. */
  Error: object(
    {
      success: constant(false),
      error: object(
        {
          type: string({ description: 'Exception class name, e.g. `ValidationError`, `TimeoutError`.' }),
          message: string({ description: 'Human-readable; never a stack trace.' }),
          code: string({ description: 'Machine code: `VALIDATION_FAILED`, `NOT_FOUND`, … or an endpoint-specific one such as `SLUG_TAKEN`.' }),
          details: freeObject('Extra context, e.g. `{field, value, issue}` for a validation failure.'),
          correlation_id: string({ description: 'The request id (`X-Request-Id`), for support and logs.' }),
          timestamp: dateTime,
          retry_after: integer({ minimum: 0, description: 'Seconds until the refusing limit frees up (429 only).' }),
        },
        { optional: ['retry_after'] },
      ),
    },
    { description: 'The error body of every failure.' },
  ),
  ReducedError: object(
    { success: constant(false), error: object({ message: string({ description: 'Human-readable.' }) }) },
    { description: 'The reduced error body (`reducedErrorBody` of `@svc/core`): only a message, where the spec gives that form (an access code that does not validate).' },
  ),
  Meta: object({ request_id: string(), timestamp: dateTime }, { description: 'Optional envelope metadata (the spec allows it; most endpoints omit it).' }),
  Pagination: object(
    {
      total: integer({ minimum: 0 }),
      page: integer({ minimum: 1 }),
      pages: integer({ minimum: 0 }),
      limit: integer({ minimum: 1 }),
      has_next: { type: 'boolean' },
      has_prev: { type: 'boolean' },
    },
    { description: 'Where a page sits in a list.' },
  ),
  Message: object({ message: string() }, { description: 'A confirmation for people to read.' }),
};

export const SHARED_HEADERS: Record<string, HeaderObject> = {
  RateLimitLimit: { description: 'Size of the most constrained limit that applies.', schema: integer() },
  RateLimitRemaining: { description: 'Requests left in that limit\'s window.', schema: integer() },
  RateLimitReset: { description: 'When that window resets, in Unix seconds.', schema: integer() },
  RetryAfter: { description: 'Seconds until the refusing limit frees up.', schema: integer() },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

export const SHARED_RESPONSES: Record<string, ResponseObject> = {
  Unauthenticated: {
    description: '`AUTHENTICATION_FAILED`: the credential is missing, malformed, expired or revoked, or of a kind this endpoint does not accept.',
    content: { 'application/json': { schema: ref('Error') } },
  },
  UnauthenticatedWithChallenge: {
    description:
      '`AUTHENTICATION_FAILED`, as `Unauthenticated`, with the challenge OAuth clients start from (RFC 6750, RFC 9728): where the resource\'s metadata is, the scope to ask for, and `error="invalid_token"` when a credential was presented and refused.',
    headers: {
      'WWW-Authenticate': {
        description: '`Bearer resource_metadata="<public URL>/.well-known/oauth-protected-resource/mcp", scope="commands:execute"` (and `, error="invalid_token", error_description="…"`).',
        schema: string(),
      },
    },
    content: { 'application/json': { schema: ref('Error') } },
  },
  RateLimited: {
    description: '`RATE_LIMITED`: a limit is spent (per user, per endpoint group, command runs or per client address); `error.retry_after` says for how long.',
    headers: {
      'Retry-After': headerRef('RetryAfter'),
      'X-RateLimit-Limit': headerRef('RateLimitLimit'),
      'X-RateLimit-Remaining': headerRef('RateLimitRemaining'),
      'X-RateLimit-Reset': headerRef('RateLimitReset'),
    },
    content: { 'application/json': { schema: ref('Error') } },
  },
  Error: {
    description:
      'Any other failure, in the error body: 400 `VALIDATION_FAILED` (malformed JSON, JSON nested more than 64 levels, a body that does not decode as its `Content-Encoding` says, bad path), 404 `NOT_FOUND` (no such path), 405 `METHOD_NOT_ALLOWED` (`OPTIONS`), 413 `PAYLOAD_TOO_LARGE` (body over 1 MiB), 415 `UNSUPPORTED_MEDIA_TYPE` (a body that is not JSON), 431 `HEADERS_TOO_LARGE` (headers over 16 KiB), 500 `INTERNAL_ERROR`, 503 `SERVICE_UNAVAILABLE` (the owning service is unreachable).',
    content: { 'application/json': { schema: ref('Error') } },
  },
};

/** The components every document has, before the services' own schemas are added. */
export function sharedComponents(): ComponentsObject {
  return {
    securitySchemes: structuredClone(SECURITY_SCHEMES),
    schemas: structuredClone(SHARED_SCHEMAS),
    headers: structuredClone(SHARED_HEADERS),
    responses: structuredClone(SHARED_RESPONSES),
  };
}
