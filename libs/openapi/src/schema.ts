import { z } from 'zod';
import type { ReferenceObject, SchemaObject, SchemaObjectType } from 'openapi3-ts/oas30';

/** A schema or a `$ref` to one, as OpenAPI 3.0 accepts them. */
export type Schema = SchemaObject | ReferenceObject;

/** A schema that names its `type`, which OpenAPI 3.0's `nullable` needs beside it. */
export type TypedSchema = SchemaObject & { type: Exclude<SchemaObjectType, 'null'> };

const COMPONENTS = '#/components/schemas/';

/** Formats a document reader knows by name; zod's regular expression for them only adds noise. */
const NAMED_FORMATS = new Set(['date-time', 'date', 'uuid', 'email', 'uri']);

function convert(schema: z.ZodType, io: 'input' | 'output'): SchemaObject & { $schema?: string; definitions?: Record<string, SchemaObject> } {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'openapi-3.0',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      // OpenAPI 3.0.3: `nullable` does not add null to an `enum`, which must list it itself.
      if (jsonSchema.nullable && jsonSchema.enum && !jsonSchema.enum.includes(null)) jsonSchema.enum.push(null);
      // zod calls every number literal a `number`; an exact count is an `integer`.
      if (jsonSchema.type === 'number' && jsonSchema.enum?.every((value) => Number.isInteger(value))) jsonSchema.type = 'integer';
      if (io === 'input') return;
      // An answer always carries the field: a default is the service's business, not the reader's.
      delete jsonSchema.default;
      if (typeof jsonSchema.format === 'string' && NAMED_FORMATS.has(jsonSchema.format)) delete jsonSchema.pattern;
    },
  });
  // A schema named with `.meta({ id })` is a component of the document, referred to by that name.
  return JSON.parse(JSON.stringify(json).replaceAll('"#/definitions/', `"${COMPONENTS}`));
}

/**
 * The OpenAPI 3.0 Schema Object of a zod schema from `@svc/contracts` (zod's own translation:
 * `nullable: true` for a null branch, `enum` for a literal), so that a body is described by
 * the same schema that validates or types it. `io: 'input'` describes what a client may send
 * (defaults make fields optional), `'output'` what a service answers. A schema named with
 * `.meta({ id })` inside it becomes a `$ref` to that component, which some fragment lists in
 * `componentSchemas`. Refinements zod cannot express (byte lengths, custom checks) and what
 * 3.0 has no keyword for (constraints on a record's keys) are left to the server.
 *
 * @example
 *   requestBody: jsonBody(fromZod(RegisterBody))
 */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'input'): SchemaObject {
  const { $schema: _dialect, definitions: _components, ...json } = convert(schema, io);
  return json as SchemaObject;
}

/**
 * The component schemas of a fragment, by the names their zod schemas carry (`.meta({ id })`),
 * as answered (`io: 'output'`), with every named schema they contain, so that each is written
 * once and referred to by name.
 *
 * @example
 *   schemas: componentSchemas(StorageEntry, StorageWrite)
 */
export function componentSchemas(...schemas: z.ZodType[]): Record<string, SchemaObject> {
  const components: Record<string, SchemaObject> = {};
  for (const schema of schemas) {
    const id = z.globalRegistry.get(schema)?.id;
    if (!id) throw new Error('A component schema needs a name: .meta({ id })');
    Object.assign(components, convert(schema, 'output').definitions);
  }
  return components;
}

export const string = (extra: SchemaObject = {}): TypedSchema => ({ ...extra, type: 'string' });
export const integer = (extra: SchemaObject = {}): TypedSchema => ({ ...extra, type: 'integer' });
export const uuid: TypedSchema = { type: 'string', format: 'uuid' };
export const dateTime: TypedSchema = { type: 'string', format: 'date-time' };

/** Exactly `value` (a fixed `status`, `success: true`): a one-value `enum`, as 3.0 has no `const`. */
export const constant = (value: string | boolean, extra: SchemaObject = {}): TypedSchema => ({ ...extra, type: typeof value as 'string' | 'boolean', enum: [value] });

export const enumOf = (values: readonly string[], extra: SchemaObject = {}): TypedSchema => ({ ...extra, type: 'string', enum: [...values] });

export const arrayOf = (items: Schema, extra: SchemaObject = {}): TypedSchema => ({ ...extra, type: 'array', items });

/** A JSON object whose properties are not described here (a JSON Schema, stored data). */
export const freeObject = (description: string): TypedSchema => ({ type: 'object', description, additionalProperties: true });

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * A closed object: every property listed is required unless named in `optional`, and no other
 * property may appear, so a field a service starts sending without describing it fails the
 * response checks of the end-to-end tests.
 *
 * @example
 *   object({ key: string(), expires_at: nullable(dateTime) })
 */
export function object(properties: Record<string, Schema>, options: { optional?: string[]; description?: string } = {}): TypedSchema {
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
