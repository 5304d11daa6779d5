import openapiTS, { astToString } from 'openapi-typescript';

/**
 * What the SDKs generate from the platform's OpenAPI document: the TypeScript types of every
 * path (openapi-typescript), the Python client's operation table and its schemas as TypedDicts.
 * `generate.ts` writes them;
 * the drift test compares them with what is committed.
 */
export interface GeneratedSources {
  typescript: string;
  python: string;
  pythonTypes: string;
}

const HEADER = 'This file is generated from the platform\'s /openapi.json by sdk/typescript/scripts/generate.ts; do not edit it.';

/**
 * Operations the SDKs leave out: not JSON (Swagger UI, the CLI's login page, dashboard bundle
 * files) or another protocol (MCP: use an MCP client), or the payment processor's own webhooks.
 */
export const EXCLUDED_OPERATIONS = new Set([
  'getDocs',
  'getCliLoginPage',
  'mcpGet',
  'mcp',
  'mcpDelete',
  'getDashboardBundleFile',
  'getDashboardViewFile',
  'getSharedDashboardBundleFile',
  'receiveBillingEvent',
  'receiveRegistrationEvent',
]);

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: { type?: string };
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  pathParams: string[];
  query: Array<{ name: string; type: string }>;
  headers: string[];
  body: 'json' | 'multipart' | null;
}

/** Every operation the SDKs expose, in the document's order. */
export function operationsOf(doc: any): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op || EXCLUDED_OPERATIONS.has(op.operationId)) continue;
      const params: Parameter[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const content = op.requestBody?.content ?? {};
      found.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, type: p.schema?.type ?? 'string' })),
        headers: params.filter((p) => p.in === 'header').map((p) => p.name),
        body: content['multipart/form-data'] ? 'multipart' : content['application/json'] ? 'json' : null,
      });
    }
  }
  return found;
}

/** `getTask` → `get_task`, `listSshTargets` → `list_ssh_targets`. */
export function snakeCase(id: string): string {
  return id.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

const PY_TYPES: Record<string, string> = { integer: 'int', number: 'float', boolean: 'bool', string: 'str' };

function pythonSource(doc: any): string {
  const rows = operationsOf(doc).map((op) => {
    const query = op.query.map((q) => `(${JSON.stringify(q.name)}, ${PY_TYPES[q.type] ?? 'str'})`).join(', ');
    return `    ${JSON.stringify(snakeCase(op.id))}: Operation(${JSON.stringify(op.id)}, ${JSON.stringify(op.method)}, ${JSON.stringify(op.path)}, (${op.pathParams.map((p) => JSON.stringify(p) + ',').join(' ')}), (${query}${op.query.length === 1 ? ',' : ''}), ${op.body ? JSON.stringify(op.body) : 'None'}),`;
  });
  return [
    `"""${HEADER}"""`,
    '',
    'from __future__ import annotations',
    '',
    'from ._operation import Operation',
    '',
    `API_VERSION = ${JSON.stringify(String(doc.info?.version ?? ''))}`,
    '',
    '# Python name -> the operation of the OpenAPI document it calls.',
    'OPERATIONS: dict[str, Operation] = {',
    ...rows,
    '}',
    '',
  ].join('\n');
}

/** The Python annotation of a schema; other schemas of the document by name (forward references). */
function pythonType(schema: any): string {
  if (!schema || typeof schema !== 'object') return 'Any';
  const inner = (() => {
    if (schema.$ref) return JSON.stringify(String(schema.$ref).split('/').pop());
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (alternatives) return `Union[${alternatives.map(pythonType).join(', ')}]`;
    if (schema.type === 'array') return `list[${pythonType(schema.items)}]`;
    if (schema.type === 'object' || schema.properties) return 'dict[str, Any]';
    return PY_TYPES[schema.type] ?? 'Any';
  })();
  return schema.nullable ? `Optional[${inner}]` : inner;
}

/**
 * A TypedDict per schema of the document's components (functional form: property names need not
 * be identifiers). `total=False`: Python 3.10 has no `NotRequired`; `REQUIRED` lists what is.
 */
function pythonTypesSource(doc: any): string {
  const schemas = Object.entries<any>(doc.components?.schemas ?? {});
  const lines = [`"""${HEADER}"""`, '', 'from __future__ import annotations', '', 'from typing import Any, Optional, TypedDict, Union', ''];
  const required: string[] = [];
  for (const [name, schema] of schemas) {
    if (!schema.properties) {
      lines.push(`${name} = ${pythonType(schema).replace(/^"(.*)"$/, '$1')}`, '');
      continue;
    }
    const fields = Object.entries<any>(schema.properties).map(([field, value]) => `    ${JSON.stringify(field)}: ${pythonType(value)},`);
    lines.push(`${name} = TypedDict(${JSON.stringify(name)}, {`, ...fields, '}, total=False)', '');
    required.push(`    ${JSON.stringify(name)}: (${(schema.required ?? []).map((field: string) => `${JSON.stringify(field)},`).join(' ')}),`);
  }
  lines.push('# The fields each schema requires.', 'REQUIRED: dict[str, tuple[str, ...]] = {', ...required, '}', '');
  return lines.join('\n');
}

/** Both SDKs' generated sources for an OpenAPI document. */
export async function generateSources(doc: any): Promise<GeneratedSources> {
  const ast = await openapiTS(doc, { alphabetize: false, emptyObjectsUnknown: true });
  const typescript = `// ${HEADER}\n\n${astToString(ast)}`;
  return { typescript, python: pythonSource(doc), pythonTypes: pythonTypesSource(doc) };
}
