import type { Request } from 'express';
import { Strategy as JwtStrategy, type StrategyOptionsWithoutRequest, type VerifiedCallback } from 'passport-jwt';
import { RememberedTokens } from '@svc/auth';

/** A verified token's claims, as jsonwebtoken parsed them. */
type Claims = Record<string, unknown>;

/** What the gateway does with a verified token's claims: the caller behind them, or a refusal. */
export type ClaimsCheck = (claims: Claims, done: VerifiedCallback) => void;

/**
 * passport-jwt's strategy, which remembers the claims of every token it verified (`RememberedTokens`
 * of `@svc/auth`, until the token's `exp`): a caller's next requests with the same token skip
 * jsonwebtoken's decoding and HMAC, about a seventh of the gateway's CPU on a proxied `GET`
 * (BENCHMARKS.md, twenty-eighth round). `check` runs on every request, remembered or not, so a
 * revoked session or grant is refused as before. A token without `exp` is never remembered (and
 * `check` refuses it).
 */
export class RememberingJwtStrategy extends JwtStrategy {
  private readonly remembered: RememberedTokens<Claims>;
  private readonly jwtFromRequest: StrategyOptionsWithoutRequest['jwtFromRequest'];

  constructor(
    options: StrategyOptionsWithoutRequest,
    private readonly check: ClaimsCheck,
  ) {
    const remembered = new RememberedTokens<Claims>();
    super({ ...options, passReqToCallback: true }, (req: Request, claims: Claims, done: VerifiedCallback) => {
      const token = options.jwtFromRequest(req);
      if (token && typeof claims.exp === 'number') remembered.remember(token, claims, claims.exp * 1000);
      check(claims, done);
    });
    this.remembered = remembered;
    this.jwtFromRequest = options.jwtFromRequest;
  }

  override authenticate(req: Request, options?: object): void {
    const token = this.jwtFromRequest(req);
    const claims = token ? this.remembered.get(token) : undefined;
    if (claims === undefined) return super.authenticate(req, options);
    // As passport-jwt hands a freshly verified token's claims on.
    try {
      this.check(claims, (err, user, info) => {
        if (err) this.error(err as Error);
        else if (!user) this.fail(info);
        else this.success(user, info);
      });
    } catch (err) {
      this.error(err as Error);
    }
  }
}
