import type { RequestHandler } from 'express';
import helmet, { strictTransportSecurity } from 'helmet';

/**
 * What every answer of the API origin may do in a browser: nothing. JSON loads, runs, frames and
 * submits nothing; pages that need more (`/docs`, `/cli/login`) set their own policy.
 */
const NOTHING = { defaultSrc: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"], frameAncestors: ["'none'"] };

/**
 * `Strict-Transport-Security` only on answers that went out over https (directly, or through a
 * TLS proxy that `SVC_TRUST_PROXY` trusts to say so): browsers ignore it over http, and a gateway
 * reached over http must not claim a policy nothing enforces.
 */
function hstsOverHttps(): RequestHandler {
  const hsts = strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: false });
  return (req, res, next) => (req.secure ? hsts(req, res, next) : next());
}

/**
 * The API origin's headers (helmet): `nosniff`, no framing (`X-Frame-Options: DENY` and
 * `frame-ancestors 'none'`), the strict policy above, `same-origin` for resources and openers,
 * no referrer, and HSTS over https.
 */
export function apiSecurityHeaders(): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: NOTHING },
      xFrameOptions: { action: 'deny' },
      strictTransportSecurity: false,
    }),
    hstsOverHttps(),
  ];
}

/**
 * The dashboard origin's headers: the same, except that a dashboard must be framed by the
 * console (no `X-Frame-Options`, no `frame-ancestors`) and its files loaded by a frame whose
 * origin is opaque (`Cross-Origin-Resource-Policy: cross-origin`). Files get their own policy
 * (`dashboardOriginFileHeaders`); what else this listener answers (404s) runs nothing.
 */
export function dashboardOriginSecurityHeaders(): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...NOTHING, frameAncestors: null } },
      xFrameOptions: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      strictTransportSecurity: false,
    }),
    hstsOverHttps(),
  ];
}
