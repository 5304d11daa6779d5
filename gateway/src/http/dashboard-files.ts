import { extname } from 'node:path';
import type { RequestHandler } from 'express';

/**
 * A file of a dashboard's bundle, read with a JWT (the spec's path), a share link or a view
 * token: `/api/v1/{dashboards|shared-dashboards|dashboard-views}/{slug or token}/bundle/{version}/{path}`.
 * These are the only routes of the dashboard origin.
 */
const DASHBOARD_FILE = /^\/api\/v1\/(?:dashboards|shared-dashboards|dashboard-views)\/[^/]+\/bundle\/[^/]+\/[^/]/;

export function isDashboardFile(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && DASHBOARD_FILE.test(path);
}

/**
 * What a browser only uses the way the page that loads it says (a script, a style sheet, an
 * image, a font), and so may be answered inline. SVG is an image, but a document with scripts
 * when navigated to: the sandbox of `API_ORIGIN_FILE_POLICY` is what keeps it inert.
 */
const INLINE_TYPES = new Set(['.js', '.mjs', '.css', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.ico', '.bmp', '.svg', '.woff', '.woff2', '.ttf', '.otf']);

/** A bundle file on the API's origin, opened as a page, is inert: no scripts, no plugins, an opaque origin, no loads, no framing. */
export const API_ORIGIN_FILE_POLICY = "sandbox; default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A bundle file on the dashboard origin is the dashboard's own page: it may run scripts, but in
 * an opaque origin of its own (no `allow-same-origin`), so that no dashboard reads another's
 * storage or registers a service worker over it, and no request it makes is the origin's.
 */
export const DASHBOARD_ORIGIN_FILE_POLICY = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/**
 * Bundle files answered on the API origin (the spec's path stays there): sandboxed with no
 * scripts, and anything but a script, style sheet, image or font is a download, never a page.
 */
export function apiOriginFileHeaders(): RequestHandler {
  return (req, res, next) => {
    if (!isDashboardFile(req.method, req.path)) return next();
    res.setHeader('Content-Security-Policy', API_ORIGIN_FILE_POLICY);
    if (!INLINE_TYPES.has(extname(req.path).toLowerCase())) res.setHeader('Content-Disposition', 'attachment');
    next();
  };
}

/**
 * Bundle files on the dashboard origin: the sandbox above, and readable by any origin without
 * credentials (`Access-Control-Allow-Origin: *`), since a sandboxed frame's origin is opaque
 * and its module imports are CORS requests. The URL is the credential (a share link or a view
 * token); no cookie or header is ever honoured here with CORS.
 */
export function dashboardOriginFileHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DASHBOARD_ORIGIN_FILE_POLICY);
    res.setHeader('Access-Control-Allow-Origin', '*');
    next();
  };
}
