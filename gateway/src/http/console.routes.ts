import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { Router } from 'express';

/** Where Vite puts the console's hashed files; their names change with their content. */
export const CONSOLE_ASSETS_PATH = '/assets';

/**
 * The console `npm run build` made (`console/dist`), found through the workspace's
 * `@svc/console`; undefined when this install has none (`/` and the console's pages are then
 * JSON 404s, as any unknown path).
 */
export function builtConsole(): string | undefined {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@svc/console/package.json')), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a path is a page of the console: `/`, or under one of the first segments its build
 * lists in `pages.json` (`/commands` and `/commands/acme/echo`, not `/commandsx`).
 */
export function consolePages(dir: string): (path: string) => boolean {
  const prefixes = (JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as string[]).filter((page) => page !== '/');
  return (path) => path === '/' || prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * What the console's pages may do: run and style themselves from this origin only (no inline
 * script; React sets styles through the DOM, which `style-src` does not govern), call this
 * origin only, frame nothing but dashboards (their origin, when there is one), and be framed by
 * nobody.
 */
export function consolePolicy(dashboardOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${dashboardOrigin ?? "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The web console on the API origin: its hashed files under `/assets/` (immutable, a year), and
 * `index.html` for every page of it (`CONSOLE_PATHS`), so that a reload or a link to a deep page
 * works. Anything else (`/api`, `/mcp`, `/health`, `/openapi.json`, `/.well-known`, an unknown
 * file) falls through to the route table and its JSON 404.
 */
export function consoleRoutes(dir: string | undefined, options: { dashboardOrigin?: string } = {}): Router {
  const router = Router();
  if (!dir || !existsSync(join(dir, 'index.html'))) return router;
  const policy = consolePolicy(options.dashboardOrigin);
  const index = join(dir, 'index.html');
  const isPage = consolePages(dir);
  router.use(CONSOLE_ASSETS_PATH, express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true, redirect: false }));
  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPage(req.path)) return next();
    // The page names this build's files: revalidated on every load, so a new build is seen at once.
    res.sendFile(index, { headers: { 'Content-Security-Policy': policy, 'Cache-Control': 'no-cache' } });
  });
  return router;
}

/** Where the dashboard origin serves the console's frame page (`console/public/frame/`). */
export const FRAME_PATH = '/frame';

/**
 * The frame page's policy: the sandbox of a dashboard's own pages (scripts in an opaque origin),
 * and loads and requests to the dashboard origin only, so that a dashboard reaches nothing but
 * its own files, and the console through `postMessage`.
 */
export function framePolicy(dashboardOrigin: string): string {
  return [
    'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads',
    "default-src 'none'",
    `script-src ${dashboardOrigin}`,
    `style-src ${dashboardOrigin} 'unsafe-inline'`,
    `img-src ${dashboardOrigin} data: blob:`,
    `font-src ${dashboardOrigin} data:`,
    `media-src ${dashboardOrigin} blob:`,
    `connect-src ${dashboardOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The console's frame page on the dashboard origin (`/frame`, and its script `/frame/frame.js`):
 * the page a dashboard is mounted in ([console](../../../console/README.md)). Nothing without a
 * console build or without a dashboard origin.
 */
export function consoleFrameRoutes(dir: string | undefined, dashboardOrigin: string | undefined): Router {
  const router = Router();
  if (!dir || !dashboardOrigin || !existsSync(join(dir, 'frame', 'index.html'))) return router;
  const headers = { 'Content-Security-Policy': framePolicy(dashboardOrigin), 'Cache-Control': 'no-cache' };
  router.get(FRAME_PATH, (_req, res) => res.sendFile(join(dir, 'frame', 'index.html'), { headers }));
  // The page's origin is opaque, so loading its module script is a CORS request (no credentials).
  router.get(`${FRAME_PATH}/frame.js`, (_req, res) => res.sendFile(join(dir, 'frame', 'frame.js'), { headers: { ...headers, 'Access-Control-Allow-Origin': '*' } }));
  return router;
}
