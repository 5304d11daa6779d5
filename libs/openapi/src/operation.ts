import { z } from 'zod';
import type { HeaderObject, ParameterObject, ReferenceObject, RequestBodyObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas30';
import { fromZod, object, ref, type Schema } from './schema.js';

type Headers = Record<string, HeaderObject | ReferenceObject>;

/** A required JSON request body. */
export function jsonBody(schema: Schema, description?: string): RequestBodyObject {
  return { required: true, ...(description ? { description } : {}), content: { 'application/json': { schema } } };
}

/** A schema of the document, or the zod contract of an answer. */
type Answer = Schema | z.ZodType;

const answered = (schema: Answer): Schema => (schema instanceof z.ZodType ? fromZod(schema, 'output') : schema);

/** `description` answered with a JSON body: `schema`, or a zod schema of `@svc/contracts` as it is answered. */
export function jsonResponse(description: string, schema: Answer, headers?: Headers): ResponseObject {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: answered(schema) } } };
}

/**
 * The success envelope of Part 1: `{data, meta?}`, plus any siblings of `data` an endpoint
 * adds (the command list's `pagination`).
 */
export function envelope(data: Answer, siblings: Record<string, Answer> = {}): SchemaObject {
  const answers = Object.fromEntries(Object.entries(siblings).map(([name, schema]) => [name, answered(schema)]));
  return object({ data: answered(data), ...answers, meta: ref('Meta') }, { optional: ['meta'] });
}

/** `description` answered as `{data: <schema>}`. */
export function dataResponse(description: string, data: Answer, headers?: Headers): ResponseObject {
  return jsonResponse(description, envelope(data), headers);
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
