import type { Express } from 'express';

/** A route an express app really answers: method (lower case, or `all`) and OpenAPI path template. */
export interface RegisteredRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: unknown;
  slash?: boolean;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * `/organizations/:orgId` → `/organizations/{org_id}`: express parameters as the document names
 * them. A trailing wildcard (`/bundle/:version/*path`) is the document's `{path}`, which its
 * description says may hold `/`.
 */
export function openApiTemplate(expressPath: string): string {
  const path = expressPath.replace(/\/\*([A-Za-z_][A-Za-z0-9_]*)$/, '/:$1');
  if (/[*?(){}]/.test(path)) throw new Error(`Route path ${expressPath} uses express syntax the route check does not translate`);
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => `{${snakeCase(name)}}`);
}

function walk(stack: Layer[], prefix: string, out: RegisteredRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const { path, methods } = layer.route;
      if (typeof path !== 'string') throw new Error(`Route under ${prefix || '/'} has a path that is not a string`);
      for (const method of Object.keys(methods).filter((m) => methods[m])) {
        out.push({ method: method === '_all' ? 'all' : method, path: openApiTemplate(prefix + path) });
      }
      continue;
    }
    // Plain middleware (body parsers, the gateway's route table, static files) declares no route.
    if (!layer.handle.stack) continue;
    if (!layer.slash && typeof layer.rawPath !== 'string') throw new Error(`Router mounted under ${prefix || '/'} at a path that is not a string`);
    walk(layer.handle.stack, prefix + (layer.slash ? '' : (layer.rawPath as string)), out);
  }
}

/**
 * Every route registered on an express 5 app, nested routers included, with the paths they are
 * mounted under: what the app answers, whatever any document says.
 */
export function registeredRoutes(app: Express): RegisteredRoute[] {
  const out: RegisteredRoute[] = [];
  walk((app.router as unknown as { stack: Layer[] }).stack, '', out);
  return out;
}
