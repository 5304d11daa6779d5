import { z } from 'zod';
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';

/** A schema or a `$ref` to one, as OpenAPI 3.1 accepts them anywhere. */
export type Schema = SchemaObject | ReferenceObject;

/**
 * The JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of a zod schema from
 * `@svc/contracts`, so that a request is described by the same schema that validates it.
 * `io: 'input'` describes what a client may send (defaults make fields optional);
 * refinements zod cannot express (byte lengths, custom checks) are left to the server.
 *
 * @example
 *   requestBody: jsonBody(fromZod(RegisterBody))
 */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'input'): SchemaObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return json as SchemaObject;
}

export const string = (extra: SchemaObject = {}): SchemaObject => ({ type: 'string', ...extra });
export const integer = (extra: SchemaObject = {}): SchemaObject => ({ type: 'integer', ...extra });
export const boolean = (extra: SchemaObject = {}): SchemaObject => ({ type: 'boolean', ...extra });
export const uuid: SchemaObject = { type: 'string', format: 'uuid' };
export const dateTime: SchemaObject = { type: 'string', format: 'date-time' };

/** Exactly `value` (a fixed `status`, `success: true`). */
export const constant = (value: string | number | boolean, extra: SchemaObject = {}): SchemaObject => ({ const: value, ...extra });

export const enumOf = (values: readonly string[], extra: SchemaObject = {}): SchemaObject => ({ type: 'string', enum: [...values], ...extra });

export const arrayOf = (items: Schema, extra: SchemaObject = {}): SchemaObject => ({ type: 'array', items, ...extra });

/** `schema` or `null`. */
export const nullable = (schema: Schema): SchemaObject => ({ anyOf: [schema, { type: 'null' }] });

/** Any JSON value (a command's result, pack-defined input). */
export const anyValue = (description: string): SchemaObject => ({ description });

/** A JSON object whose properties are not described here (a JSON Schema, stored data). */
export const freeObject = (description: string): SchemaObject => ({ type: 'object', description, additionalProperties: true });

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * A closed object: every property listed is required unless named in `optional`, and no other
 * property may appear, so a field a service starts sending without describing it fails the
 * response checks of the end-to-end tests.
 *
 * @example
 *   object({ key: string(), expires_at: nullable(dateTime) })
 */
export function object(properties: Record<string, Schema>, options: { optional?: string[]; description?: string } = {}): SchemaObject {
  const optional = new Set(options.optional ?? []);
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
