import cookieParser from 'cookie-parser';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { OAUTH_SCOPE } from '@svc/auth';
import { AuthenticationError, ValidationError } from '@svc/core';
import type { OAuthClientService } from '../services/oauth-client.service.js';
import { clientNameOf } from '../services/oauth-client-rules.js';
import { CONSENT_SESSION_SECONDS, type OAuthConsentService } from '../services/oauth-consent.service.js';
import type { OAuthService } from '../services/oauth.service.js';
import { CONSENT_PATH, sendConsent, sendProblem, sendSignIn, type ConsentRequestView } from './consent-page.js';
import { requireSameOrigin } from './same-origin.js';

/** The consent page's sign-in, on the `/oauth` paths only. */
export const OAUTH_COOKIE = 'svc_oauth';
const FIELD_MAX = 1024;

export interface OAuthRouteDeps {
  oauth: OAuthService;
  consent: OAuthConsentService;
  clients: OAuthClientService;
  cookieSecure: boolean;
}

/**
 * The SDK's provider interface over the platform's rules: the SDK's handlers parse and check
 * each request (client, redirect URI, PKCE S256, grant types) and answer in OAuth's own error
 * format; `authorize` shows the consent page.
 */
function providerOf({ oauth, consent, clients }: OAuthRouteDeps): OAuthServerProvider {
  return {
    clientsStore: clients,
    async authorize(client, params, res) {
      const { scopes, resource } = oauth.checkRequest(params);
      const pending = { clientId: client.client_id, clientName: clientNameOf(client), redirectUri: params.redirectUri, codeChallenge: params.codeChallenge, state: params.state, scopes, resource };
      const request = consent.seal(pending);
      const view = { request, clientId: pending.clientId, clientName: pending.clientName, redirectUri: pending.redirectUri };
      const identity = await consent.signedIn((res.req as Request).cookies?.[OAUTH_COOKIE]);
      if (identity) sendConsent(res, view, identity, consent.formToken(identity, request));
      else sendSignIn(res, view);
    },
    challengeForAuthorizationCode: (client, code) => oauth.challengeFor(client.client_id, code),
    exchangeAuthorizationCode: (client, code, _verifier, redirectUri, resource) => oauth.exchangeCode(client.client_id, code, redirectUri, resource),
    exchangeRefreshToken: (client, refreshToken, scopes, resource) => oauth.refresh(client.client_id, refreshToken, scopes, resource),
    verifyAccessToken: (token) => oauth.verifyAccessToken(token),
    revokeToken: (client, request) => oauth.revoke(client.client_id, request.token),
  };
}

/** RFC 8414 and RFC 9728 documents: where everything is, and what is supported. */
function metadataOf(oauth: OAuthService) {
  const issuer = oauth.issuer;
  const authorizationServer = {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [OAUTH_SCOPE],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs`,
  };
  const protectedResource = {
    resource: oauth.resource,
    authorization_servers: [issuer],
    scopes_supported: [OAUTH_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'svc MCP endpoint',
    resource_documentation: `${issuer}/docs`,
  };
  return { authorizationServer, protectedResource };
}

/**
 * One of the SDK's handlers (a router answering at its own root, as `app.use(path, handler)`
 * would mount it) served at a route of this router: registered for its methods only, so that
 * the route table and the OpenAPI document describe exactly what is answered.
 */
function at(handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const url = req.url;
    const query = url.indexOf('?');
    req.url = query === -1 ? '/' : `/${url.slice(query)}`;
    handler(req, res, (err?: unknown) => {
      req.url = url;
      next(err);
    });
  };
}

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value.length <= FIELD_MAX ? value : undefined;
}

/** A step of the consent page posted back: sign in, then approve for a tenant or deny. */
async function consentStep({ consent, cookieSecure }: OAuthRouteDeps, req: Request, res: Response): Promise<void> {
  requireSameOrigin(req);
  const body = (req.body ?? {}) as Record<string, unknown>;
  let view: ConsentRequestView;
  try {
    const pending = consent.open(body.request);
    view = { request: body.request as string, clientId: pending.clientId, clientName: pending.clientName, redirectUri: pending.redirectUri };
  } catch (err) {
    // A browser is shown the problem; anything else (a script, a probe) gets the error body.
    if (!(err instanceof ValidationError) || req.accepts(['json', 'html']) !== 'html') throw err;
    return sendProblem(res, 400, err.message);
  }
  const action = field(body, 'action');
  if (action === 'sign-in') {
    const email = field(body, 'email');
    const password = field(body, 'password');
    if (!email || !password) return sendSignIn(res, { ...view, error: 'Enter your e-mail and password' }, 400);
    try {
      const { cookie, identity } = await consent.signIn(email.trim().toLowerCase(), password);
      res.cookie(OAUTH_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', secure: cookieSecure, path: '/oauth', maxAge: CONSENT_SESSION_SECONDS * 1000 });
      return sendConsent(res, view, identity, consent.formToken(identity, view.request));
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      return sendSignIn(res, { ...view, error: err.message }, 401);
    }
  }
  const identity = await consent.signedIn(req.cookies?.[OAUTH_COOKIE]);
  if (!identity) return sendSignIn(res, { ...view, error: 'Your sign-in has ended; sign in again' }, 401);
  try {
    if (action === 'approve') return res.redirect(303, await consent.approve(identity, view.request, body.csrf, body.tenant_id));
    if (action === 'deny') return res.redirect(303, consent.deny(identity, view.request, body.csrf));
    throw new ValidationError('Approve or deny the request', { field: 'action' });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    if (err.details?.field === 'tenant_id') return sendConsent(res, { ...view, error: err.message }, identity, consent.formToken(identity, view.request), 400);
    if (req.accepts(['json', 'html']) !== 'html') throw err;
    return sendProblem(res, 400, err.message);
  }
}

/**
 * The authorization server for MCP clients (outside `/api/v1`, routed here by the gateway):
 * its metadata and the protected resource's, authorize (the consent page), token, dynamic
 * registration and revocation from the MCP SDK's handlers (rate limits are the gateway's, per
 * client address), and the consent page's own form posts.
 */
export function oauthRoutes(deps: OAuthRouteDeps): Router {
  const provider = providerOf(deps);
  const { authorizationServer, protectedResource } = metadataOf(deps.oauth);
  const authorize = at(authorizationHandler({ provider, rateLimit: false }));
  const router = Router();
  router.get('/.well-known/oauth-authorization-server', at(metadataHandler(authorizationServer)));
  router.get('/.well-known/oauth-protected-resource', at(metadataHandler(protectedResource)));
  router.get('/.well-known/oauth-protected-resource/mcp', at(metadataHandler(protectedResource)));
  router.get('/oauth/authorize', cookieParser(), authorize);
  router.post('/oauth/authorize', cookieParser(), authorize);
  router.post('/oauth/token', at(tokenHandler({ provider, rateLimit: false })));
  router.post('/oauth/register', at(clientRegistrationHandler({ clientsStore: deps.clients, rateLimit: false, clientSecretExpirySeconds: 0 })));
  router.post('/oauth/revoke', at(revocationHandler({ provider, rateLimit: false })));
  router.post(CONSENT_PATH, cookieParser(), express.urlencoded({ extended: false, limit: '16kb' }), (req, res) => consentStep(deps, req, res));
  return router;
}
