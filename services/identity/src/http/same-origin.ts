import type { Request } from 'express';
import { PermissionError } from '@svc/core';

const crossOrigin = (from: string) =>
  new PermissionError('The refresh cookie is only honoured for requests from the API\'s own origin', { reason: 'cross_origin', from });

/**
 * Refuses a browser request made by a page of another origin. `SameSite=Strict` is not enough:
 * a site is not an origin, and the dashboard origin is the API's site (`http://localhost:8180`
 * beside `:8080`, `dash.example.com` beside `api.example.com`), so a browser sends the cookie
 * with a request a dashboard's page makes. Browsers say where a request comes from:
 * `Sec-Fetch-Site` (every current browser; it cannot be set by a page), else `Origin` (sent on
 * every POST), which must name the host the request was sent to. A request with neither (the
 * CLI, curl, an SDK) comes from no page and passes.
 */
export function requireSameOrigin(req: Request): void {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) {
    // `none`: the person asked for it (typed, bookmarked), no page did.
    if (site === 'same-origin' || site === 'none') return;
    throw crossOrigin(`sec-fetch-site: ${site}`);
  }
  const origin = req.get('origin');
  if (origin === undefined) return;
  const host = URL.canParse(origin) ? new URL(origin).host : undefined;
  if (host === undefined || host !== req.get('host')?.toLowerCase()) throw crossOrigin(`origin: ${origin.slice(0, 200)}`);
}
