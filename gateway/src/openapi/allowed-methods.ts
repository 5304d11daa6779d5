import type { OpenAPIObject } from '@svc/openapi';
import { operationsOf } from './document.js';

/** `/api/v1/storage/{key}` → a pattern a concrete path matches (a parameter is one segment). */
function patternOf(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * The methods the document describes for a concrete path (upper case, as an `Allow` header
 * lists them), or undefined when it describes no such path.
 *
 * @example
 *   const allowed = documentedMethods(buildOpenApiDocument());
 *   allowed('/api/v1/storage/notes'); // ['DELETE', 'GET', 'PUT']
 */
export function documentedMethods(document: OpenAPIObject): (path: string) => string[] | undefined {
  const templates = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, template } of operationsOf(document.paths)) {
    const entry = templates.get(template) ?? { pattern: patternOf(template), methods: new Set<string>() };
    entry.methods.add(method.toUpperCase());
    templates.set(template, entry);
  }
  return (path) => {
    const methods = [...templates.values()].filter((entry) => entry.pattern.test(path)).flatMap((entry) => [...entry.methods]);
    return methods.length > 0 ? [...new Set(methods)].sort() : undefined;
  };
}
