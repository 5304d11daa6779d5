import { z } from 'zod';
import type { HeaderObject, ParameterObject, ReferenceObject, RequestBodyObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas30';
import { fromZod, object, ref, type Schema } from './schema.js';

type Headers = Record<string, HeaderObject | ReferenceObject>;

/** A required JSON request body. */
export function jsonBody(schema: Schema, description?: string): RequestBodyObject {
  return { required: true, ...(description ? { description } : {}), content: { 'application/json': { schema } } };
}

export function jsonResponse(description: string, schema: Schema, headers?: Headers): ResponseObject {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

/**
 * The success envelope of Part 1: `{data, meta?}`, plus any siblings of `data` an endpoint
 * adds (the command list's `pagination`).
 */
export function envelope(data: Schema, siblings: Record<string, Schema> = {}): SchemaObject {
  return object({ data, ...siblings, meta: ref('Meta') }, { optional: ['meta'] });
}

/** `description` answered as `{data: <schema>}`; a zod schema of `@svc/contracts` as it is answered. */
export function dataResponse(description: string, data: Schema | z.ZodType, headers?: Headers): ResponseObject {
  return jsonResponse(description, envelope(data instanceof z.ZodType ? fromZod(data, 'output') : data), headers);
}

/** An error status with the fleet's error body; `description` names the codes and when. */
export function errorResponse(description: string): ResponseObject {
  return jsonResponse(description, ref('Error'));
}

export function pathParameter(name: string, schema: Schema, description: string): ParameterObject {
  return { name, in: 'path', required: true, description, schema };
}

export function headerParameter(name: string, schema: Schema, description: string): ParameterObject {
  return { name, in: 'header', required: false, description, schema };
}

/**
 * Query parameters from the zod schema that parses the query, one per property, so that the
 * document lists exactly what the endpoint reads.
 */
export function queryParameters(schema: z.ZodObject, descriptions: Record<string, string> = {}): ParameterObject[] {
  const json = fromZod(schema) as { properties?: Record<string, SchemaObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
    schema: property,
  }));
}
