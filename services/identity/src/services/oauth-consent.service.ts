import { secretsEqual, signedTokens, type Identity, type SignedTokens } from '@svc/auth';
import { ValidationError } from '@svc/core';
import type { AuthService } from './auth.service.js';
import type { OAuthService, PendingAuthorization } from './oauth.service.js';
import type { PrincipalService } from './principal.service.js';
import { digest } from './tokens.js';

/** How long a consent page may stay open before its request must be started again. */
const REQUEST_TTL_SECONDS = 600;
/** How long a sign-in on the consent page lasts (its session may end sooner: sign-out, password change). */
export const CONSENT_SESSION_SECONDS = 3600;

/** A consent-page sign-in: the session family it opened, whose user, until when (seconds). */
interface ConsentSession {
  sid: string;
  uid: string;
  exp: number;
}

function parse<T>(body: string | undefined): T | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The consent page's state, kept by the browser and signed by identity (keys derived from
 * SVC_INTERNAL_SECRET, one per purpose), so that any replica serves any step:
 *
 * - the authorization request, checked by the SDK's handler and `OAuthService.checkRequest`,
 *   travels in the page's forms, signed and valid for ten minutes;
 * - a sign-in on the page opens a session of the user's (the one sign-out and a password change
 *   end) and names it in the `svc_oauth` cookie, signed, for an hour;
 * - each form carries a token bound to that session and that request (CSRF): a page of another
 *   site cannot read it, so it cannot approve on the user's behalf.
 */
export class OAuthConsentService {
  private readonly requests: SignedTokens;
  private readonly sessions: SignedTokens;
  private readonly forms: SignedTokens;

  constructor(
    private readonly auth: AuthService,
    private readonly principals: PrincipalService,
    private readonly oauth: OAuthService,
    secret: string,
  ) {
    this.requests = signedTokens({ secret, purpose: 'svc oauth authorization request', prefix: 'oar_' });
    this.sessions = signedTokens({ secret, purpose: 'svc oauth consent session', prefix: 'ocs_' });
    this.forms = signedTokens({ secret, purpose: 'svc oauth consent form', prefix: 'ocf_' });
  }

  seal(pending: PendingAuthorization): string {
    return this.requests.sign(JSON.stringify({ ...pending, exp: nowSeconds() + REQUEST_TTL_SECONDS }));
  }

  /** The request a form carried back; a forged, altered or stale one is refused. */
  open(request: unknown): PendingAuthorization {
    const body = typeof request === 'string' ? parse<PendingAuthorization & { exp: number }>(this.requests.verify(request)) : undefined;
    if (!body) throw new ValidationError('This sign-in request is not valid; start again from the application', { field: 'request' });
    if (body.exp <= nowSeconds()) throw new ValidationError('This sign-in request has expired; start again from the application', { field: 'request' });
    const { exp: _exp, ...pending } = body;
    return pending;
  }

  /** Signs the user in on the consent page: the cookie value naming the session it opened. */
  async signIn(email: string, password: string): Promise<{ cookie: string; identity: Identity }> {
    const { userId, sessionId } = await this.auth.openBrowserSession(email, password);
    const identity = await this.principals.resolveSession(sessionId);
    if (!identity) throw new ValidationError('The session could not be opened; try again');
    return { cookie: this.sessions.sign(JSON.stringify({ sid: sessionId, uid: userId, exp: nowSeconds() + CONSENT_SESSION_SECONDS })), identity };
  }

  /** The signed-in user behind a `svc_oauth` cookie, while its session lives. */
  async signedIn(cookie: unknown): Promise<Identity | undefined> {
    const session = typeof cookie === 'string' ? parse<ConsentSession>(this.sessions.verify(cookie)) : undefined;
    if (!session || typeof session.sid !== 'string' || session.exp <= nowSeconds()) return undefined;
    const identity = await this.principals.resolveSession(session.sid);
    return identity?.userId === session.uid ? identity : undefined;
  }

  formToken(identity: Identity, request: string): string {
    return this.forms.sign(`${identity.sessionId}.${digest(request)}`);
  }

  private checkFormToken(identity: Identity, request: string, token: unknown): void {
    const signed = typeof token === 'string' ? this.forms.verify(token) : undefined;
    if (signed === undefined || !secretsEqual(signed, `${identity.sessionId}.${digest(request)}`)) {
      throw new ValidationError('This form is not the one the consent page gave; reload it', { field: 'csrf' });
    }
  }

  /** The user approved for one of their tenants: where the browser goes with the code. */
  async approve(identity: Identity, request: string, formToken: unknown, tenantId: unknown): Promise<string> {
    this.checkFormToken(identity, request, formToken);
    const pending = this.open(request);
    const tenant = identity.memberships.find((m) => m.tenantId === tenantId);
    if (!tenant) throw new ValidationError('Choose one of your tenants', { field: 'tenant_id' });
    const code = await this.oauth.issueCode(identity.userId, tenant, pending);
    return this.redirect(pending, { code });
  }

  /** The user said no: the client is told `access_denied`. */
  deny(identity: Identity, request: string, formToken: unknown): string {
    this.checkFormToken(identity, request, formToken);
    return this.redirect(this.open(request), { error: 'access_denied', error_description: 'The user denied the request' });
  }

  private redirect(pending: PendingAuthorization, params: Record<string, string>): string {
    const url = new URL(pending.redirectUri);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    if (pending.state !== undefined) url.searchParams.set('state', pending.state);
    // RFC 9207: which authorization server answered, against mix-up attacks.
    url.searchParams.set('iss', this.oauth.issuer);
    return url.href;
  }
}
