import { z } from 'zod';
import { Authorization, AuthorizationRevoked, OAuthDocument } from '@svc/contracts';
import { dataResponse, errorResponse, freeObject, jsonBody, jsonResponse, pathParameter, ref, string, uuid, type OperationObject, type PathsObject, type ResponseObject, type SchemaObject } from '@svc/openapi';

type RequestBodyObject = NonNullable<OperationObject['requestBody']>;

/**
 * The OAuth 2.1 authorization server for MCP clients and the account's authorized applications:
 * the part of identity's fragment that MCP clients and the consent page use. OAuth endpoints
 * answer in OAuth's own formats (RFC 6749, 7591, 7009, 8414, 9728), not the platform's envelope.
 */

const form = (schema: SchemaObject, description: string): RequestBodyObject => ({ required: true, description, content: { 'application/x-www-form-urlencoded': { schema } } });
/** OAuth's error body; a body that could not be read at all (malformed, too large) gets the platform's. */
const oauthError = (description: string): ResponseObject => jsonResponse(description, { anyOf: [ref('OAuthError'), ref('Error')] });
const page = (description: string): ResponseObject => ({ description, content: { 'text/html': { schema: string() } } });
const redirect = (description: string): ResponseObject => ({ description, headers: { Location: { description: 'The client\'s redirect URI with `code`, `state` and `iss`, or `error`.', schema: string() } } });
const authorizationId = pathParameter('authorization_id', uuid, 'The authorization\'s id.');

const clientMetadata = freeObject('RFC 7591 client metadata: `redirect_uris` (https, or http on a loopback address), `client_name`, `grant_types`, … The answer is always a public client (`token_endpoint_auth_method: "none"`, no secret), scope `commands:execute`.');

const authorizeQuery = [
  { name: 'client_id', in: 'query' as const, required: true, description: 'A registered client id, or the https URL of a client ID metadata document.', schema: string() },
  { name: 'redirect_uri', in: 'query' as const, required: false, description: 'One of the client\'s redirect URIs.', schema: string() },
  { name: 'response_type', in: 'query' as const, required: true, description: '`code`.', schema: string() },
  { name: 'code_challenge', in: 'query' as const, required: true, description: 'PKCE challenge.', schema: string() },
  { name: 'code_challenge_method', in: 'query' as const, required: true, description: '`S256` only.', schema: string() },
  { name: 'scope', in: 'query' as const, required: false, description: '`commands:execute` (the default).', schema: string() },
  { name: 'state', in: 'query' as const, required: false, description: 'Returned as is.', schema: string() },
  { name: 'resource', in: 'query' as const, required: false, description: 'RFC 8707: the MCP endpoint\'s URL, the only resource tokens are issued for.', schema: string() },
];

const authorizeResponses = {
  200: page('The consent page: sign in if needed, then choose a tenant, see the client\'s name and redirect host, approve or deny.'),
  302: redirect('Back to the client with `error` (`invalid_scope`, `invalid_target`, `invalid_request`).'),
  400: oauthError('`invalid_client` (unknown client, or a metadata document that cannot be fetched or is not valid) or `invalid_request` (a redirect URI not registered): nowhere safe to send the browser.'),
};

export const oauthTags = [
  { name: 'OAuth', description: 'The authorization server for MCP clients (OAuth 2.1 with PKCE, dynamic registration, client ID metadata documents) and the MCP resource\'s metadata.' },
];

export const oauthPaths: PathsObject = {
  '/.well-known/oauth-authorization-server': {
    get: {
      operationId: 'oauthAuthorizationServerMetadata',
      summary: 'Authorization server metadata (RFC 8414)',
      tags: ['OAuth'],
      responses: { 200: jsonResponse('Issuer, endpoints, `S256`, scope `commands:execute`, `client_id_metadata_document_supported`.', OAuthDocument('RFC 8414 metadata.')) },
    },
  },
  '/.well-known/oauth-protected-resource': {
    get: {
      operationId: 'oauthProtectedResourceMetadata',
      summary: 'The MCP endpoint\'s protected resource metadata (RFC 9728)',
      tags: ['OAuth'],
      responses: { 200: jsonResponse('`resource` (the MCP endpoint), `authorization_servers`, `scopes_supported`.', OAuthDocument('RFC 9728 metadata.')) },
    },
  },
  '/.well-known/oauth-protected-resource/mcp': {
    get: {
      operationId: 'oauthProtectedResourceMetadataMcp',
      summary: 'The same metadata at the MCP path\'s well-known URL',
      tags: ['OAuth'],
      responses: { 200: jsonResponse('As `/.well-known/oauth-protected-resource`: the document `WWW-Authenticate` names.', OAuthDocument('RFC 9728 metadata.')) },
    },
  },
  '/oauth/authorize': {
    get: { operationId: 'oauthAuthorize', summary: 'Start an authorization (code flow, PKCE S256)', tags: ['OAuth'], parameters: authorizeQuery, responses: authorizeResponses },
    post: {
      operationId: 'oauthAuthorizeForm',
      summary: 'Start an authorization with the parameters in a form',
      tags: ['OAuth'],
      requestBody: form(freeObject('The query parameters of `GET /oauth/authorize`.'), 'The same parameters as the GET.'),
      responses: authorizeResponses,
    },
  },
  '/oauth/consent': {
    post: {
      operationId: 'oauthConsent',
      summary: 'A step of the consent page: sign in, approve or deny',
      description:
        'Posted by the consent page\'s own forms (a request another site\'s page made is refused, 403). `action=sign-in` with `email` and `password` sets the `svc_oauth` cookie (HttpOnly, `Path=/oauth`, `SameSite=Lax`, an hour) and shows the consent step; `action=approve` with `tenant_id`, or `action=deny`, each with the page\'s `csrf` token, sends the browser back to the client.',
      tags: ['OAuth'],
      requestBody: form(freeObject('`request` (the signed authorization request the page carries), `action`, and `email`/`password` or `csrf`/`tenant_id`.'), 'The page\'s form.'),
      responses: {
        200: page('The consent step after a sign-in.'),
        303: redirect('The decision, back to the client: `code`, `state` and `iss` when approved, `error=access_denied` when denied.'),
        400: {
          description: 'An expired, altered or missing request, a form without its token, or a tenant the user is not a member of: a page for a browser (`Accept: text/html`), else the error body (`VALIDATION_FAILED`).',
          content: { 'text/html': { schema: string() }, 'application/json': { schema: ref('Error') } },
        },
        401: page('Wrong e-mail or password, or the sign-in has ended: the sign-in step again.'),
        403: errorResponse('`PERMISSION_DENIED` (`details.reason: cross_origin`): a page of another origin posted the form.'),
      },
    },
  },
  '/oauth/token': {
    post: {
      operationId: 'oauthToken',
      summary: 'Exchange a code or a refresh token for tokens',
      description: 'Refresh tokens rotate: each is used once, and presenting a used one revokes the whole authorization. Access tokens last `SVC_ACCESS_TOKEN_TTL` and are for the MCP endpoint only.',
      tags: ['OAuth'],
      requestBody: form(freeObject('`grant_type` (`authorization_code` with `code`, `code_verifier`, `redirect_uri`, `resource`; or `refresh_token` with `refresh_token`), `client_id`.'), 'RFC 6749 §4.1.3 and §6.'),
      responses: {
        200: jsonResponse('`access_token`, `token_type` `Bearer`, `expires_in`, `refresh_token`, `scope`.', OAuthDocument('RFC 6749 §5.1.')),
        400: oauthError('`invalid_request`, `invalid_client`, `invalid_grant` (unknown, expired, used or revoked code or refresh token, wrong verifier or redirect URI), `invalid_target`, `invalid_scope` or `unsupported_grant_type`.'),
      },
    },
  },
  '/oauth/register': {
    post: {
      operationId: 'oauthRegisterClient',
      summary: 'Register a client (RFC 7591)',
      tags: ['OAuth'],
      requestBody: jsonBody(clientMetadata),
      responses: {
        201: jsonResponse('The client: its `client_id` and the metadata as kept.', OAuthDocument('RFC 7591 §3.2.1.')),
        400: oauthError('`invalid_client_metadata`: a redirect URI that is not https nor loopback http, a grant type or scope not offered, a name that is not one line.'),
      },
    },
  },
  '/oauth/revoke': {
    post: {
      operationId: 'oauthRevoke',
      summary: 'Revoke a token (RFC 7009)',
      description: 'An access or refresh token of the calling client ends its whole authorization: every token issued under it stops at once. An unknown token is answered the same.',
      tags: ['OAuth'],
      requestBody: form(freeObject('`token`, `token_type_hint`, `client_id`.'), 'RFC 7009 §2.1.'),
      responses: {
        200: jsonResponse('Done (or nothing to do).', z.object({})),
        400: oauthError('`invalid_request` or `invalid_client`.'),
      },
    },
  },
  '/api/v1/account/authorizations': {
    get: {
      operationId: 'listAuthorizations',
      summary: 'The applications the caller authorized',
      description: 'Authorizations given on the consent page and still in force, newest first.',
      tags: ['Account'],
      responses: { 200: dataResponse('The authorizations.', z.array(Authorization)) },
    },
  },
  '/api/v1/account/authorizations/{authorization_id}': {
    delete: {
      operationId: 'revokeAuthorization',
      summary: 'Revoke an application\'s authorization',
      description: 'Its refresh token no longer refreshes and its access tokens stop at once.',
      tags: ['Account'],
      parameters: [authorizationId],
      responses: {
        200: dataResponse('Revoked.', AuthorizationRevoked),
        404: errorResponse('`NOT_FOUND`: unknown, malformed, already revoked or another user\'s authorization.'),
      },
    },
  },
};
