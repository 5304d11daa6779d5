import { randomBytes } from 'node:crypto';
import { InvalidGrantError, InvalidScopeError, InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAUTH_SCOPE, signOAuthAccessToken, verifyOAuthAccessToken, type Membership, type OAuthTokenSettings } from '@svc/auth';
import type { Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { OAuthCodeRepository } from '../repositories/oauth-code.repository.js';
import { OAuthGrantRepository, type OAuthGrantRow } from '../repositories/oauth-grant.repository.js';
import type { PrincipalService } from './principal.service.js';
import { digest } from './tokens.js';

/** An authorization code is exchanged within seconds; minutes cover a slow client. */
const CODE_TTL_SECONDS = 300;

/** An authorization request that passed the checks, waiting for the user's decision on the consent page. */
export interface PendingAuthorization {
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  scopes: string[];
  resource: string;
}

export interface OAuthSettings {
  /** SVC_JWT_SECRET (the token key is derived from it), the issuer and the MCP resource. */
  tokens: OAuthTokenSettings;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

/**
 * The rules of the platform's authorization server for MCP clients: one resource (the MCP
 * endpoint, RFC 8707) and one scope; codes bound to the client, its redirect URI, its PKCE
 * challenge and the tenant the user chose; grants whose refresh tokens rotate, a reused one
 * revoking the grant; revocation that ends a grant's tokens at once (the gateway resolves every
 * access token's grant). Errors are the SDK's OAuth errors, which its handlers answer in
 * RFC 6749's form.
 */
export class OAuthService {
  constructor(
    private readonly db: Db,
    private readonly principals: PrincipalService,
    private readonly settings: OAuthSettings,
    private readonly log: Logger,
  ) {}

  get resource(): string {
    return this.settings.tokens.audience;
  }

  get issuer(): string {
    return this.settings.tokens.issuer;
  }

  /** The scopes and resource of an authorization request, or the error the client is redirected with. */
  checkRequest(requested: { scopes?: string[]; resource?: URL }): { scopes: string[]; resource: string } {
    // No `resource` (clients before RFC 8707): the only resource there is.
    const resource = requested.resource?.href ?? this.resource;
    if (resource !== this.resource) throw new InvalidTargetError(`Tokens are issued for ${this.resource} only`);
    const scopes = (requested.scopes ?? []).filter((scope) => scope !== '');
    if (scopes.some((scope) => scope !== OAUTH_SCOPE)) throw new InvalidScopeError(`The only scope is ${OAUTH_SCOPE}`);
    return { scopes: [OAUTH_SCOPE], resource };
  }

  /** The user approved for one of their tenants: a single-use code for the client's redirect URI. */
  async issueCode(userId: string, tenant: Membership, pending: PendingAuthorization): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await new OAuthCodeRepository(this.db).insert({
      codeHash: digest(code),
      clientId: pending.clientId,
      clientName: pending.clientName,
      userId,
      tenantId: tenant.tenantId,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      scopes: pending.scopes,
      resource: pending.resource,
      expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
    });
    return code;
  }

  /** The PKCE challenge of a live code of this client (the SDK's handler checks the verifier against it). */
  async challengeFor(clientId: string, code: string): Promise<string> {
    const row = await new OAuthCodeRepository(this.db).find(digest(code));
    if (!row || row.clientId !== clientId || row.usedAt || row.expiresAt.getTime() <= Date.now()) throw new InvalidGrantError('The authorization code is invalid, expired or used');
    return row.codeChallenge;
  }

  async exchangeCode(clientId: string, code: string, redirectUri: string | undefined, resource: URL | undefined): Promise<OAuthTokens> {
    const codes = new OAuthCodeRepository(this.db);
    const hash = digest(code);
    const row = await codes.find(hash);
    if (!row || row.clientId !== clientId) throw new InvalidGrantError('The authorization code is invalid');
    if (row.usedAt || !(await codes.markUsed(hash))) {
      // A code presented twice was intercepted, or replayed: what it gave is taken back (RFC 6749 §4.1.2).
      if (row.grantId) await this.revokeGrant(row.grantId);
      this.log.warn('authorization code reuse; its grant revoked', { client_id: clientId.slice(0, 300), grant_id: row.grantId });
      throw new InvalidGrantError('The authorization code was already used');
    }
    if (row.expiresAt.getTime() <= Date.now()) throw new InvalidGrantError('The authorization code has expired');
    if (redirectUri !== undefined && redirectUri !== row.redirectUri) throw new InvalidGrantError('redirect_uri is not the one the code was issued for');
    if (resource !== undefined && resource.href !== row.resource) throw new InvalidTargetError('resource is not the one the code was issued for');
    const grants = new OAuthGrantRepository(this.db);
    const grant = await grants.insert({ userId: row.userId, tenantId: row.tenantId, clientId, clientName: row.clientName, redirectUri: row.redirectUri, scopes: row.scopes, resource: row.resource });
    await codes.linkGrant(hash, grant.id);
    return this.issueTokens(grants, grant);
  }

  /** Rotates a refresh token: the old one is used up; presenting a used one revokes the grant. */
  async refresh(clientId: string, refreshToken: string, scopes: string[] | undefined, resource: URL | undefined): Promise<OAuthTokens> {
    const grants = new OAuthGrantRepository(this.db);
    const token = await grants.findRefreshToken(digest(refreshToken));
    const grant = token && (await grants.find(token.grantId));
    if (!token || !grant || grant.clientId !== clientId || grant.revokedAt) throw new InvalidGrantError('The refresh token is invalid or revoked');
    if (token.usedAt || !(await grants.markRefreshTokenUsed(token.id))) {
      await this.revokeGrant(grant.id);
      this.log.warn('OAuth refresh token reuse; grant revoked', { user_id: grant.userId, grant_id: grant.id });
      throw new InvalidGrantError('The refresh token was already used; the authorization has been revoked');
    }
    if (token.expiresAt.getTime() <= Date.now()) throw new InvalidGrantError('The refresh token has expired');
    if (scopes?.some((scope) => !grant.scopes.includes(scope))) throw new InvalidScopeError('A refresh cannot widen the scopes granted');
    if (resource !== undefined && resource.href !== grant.resource) throw new InvalidTargetError('resource is not the one the authorization was given for');
    return this.issueTokens(grants, grant);
  }

  /**
   * RFC 7009: an access or refresh token of this client ends its grant (every token issued
   * under it). Anything else, another client's token included, is ignored: the answer is the same.
   */
  async revoke(clientId: string, token: string): Promise<void> {
    const grants = new OAuthGrantRepository(this.db);
    const grantId = this.grantOfAccessToken(token) ?? (await grants.findRefreshToken(digest(token)))?.grantId;
    const grant = grantId && (await grants.find(grantId));
    if (grant && grant.clientId === clientId) await this.revokeGrant(grant.id);
  }

  /** Revokes a grant and drops its cached principal, so its access tokens stop on the next request. */
  async revokeGrant(grantId: string): Promise<OAuthGrantRow | undefined> {
    const revoked = await new OAuthGrantRepository(this.db).revoke(grantId);
    await this.principals.forgetOAuthGrants([grantId]);
    return revoked;
  }

  /** For the SDK's interface; the gateway does this itself on `/mcp` (and resolves the grant). */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    let claims: ReturnType<typeof verifyOAuthAccessToken>;
    try {
      claims = verifyOAuthAccessToken(token, this.settings.tokens);
    } catch {
      throw new InvalidTokenError('Invalid access token');
    }
    if (!(await new OAuthGrantRepository(this.db).findLive(claims.gid))) throw new InvalidTokenError('The authorization has been revoked');
    return { token, clientId: claims.client_id, scopes: claims.scope.split(' '), expiresAt: claims.exp, resource: new URL(this.resource) };
  }

  private grantOfAccessToken(token: string): string | undefined {
    try {
      // An expired token still names its grant, which revocation ends all the same.
      return verifyOAuthAccessToken(token, this.settings.tokens, { ignoreExpiration: true }).gid;
    } catch {
      return undefined;
    }
  }

  private async issueTokens(grants: OAuthGrantRepository, grant: OAuthGrantRow): Promise<OAuthTokens> {
    const refreshToken = randomBytes(32).toString('base64url');
    await grants.insertRefreshToken({ grantId: grant.id, tokenHash: digest(refreshToken), expiresAt: new Date(Date.now() + this.settings.refreshTtlSeconds * 1000) });
    await grants.touch(grant.id);
    const scope = grant.scopes.join(' ');
    const access = signOAuthAccessToken({ sub: grant.userId, gid: grant.id, tid: grant.tenantId, client_id: grant.clientId, scope }, this.settings.tokens, this.settings.accessTtlSeconds);
    return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, refresh_token: refreshToken, scope };
  }
}
