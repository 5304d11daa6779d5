import type { z } from 'zod';
import { ValidationError } from './errors.js';

/** Field names whose values are secrets wherever they appear (passwords, tokens, keys). */
const SECRET_FIELD = /password|secret|token|private_key|^key$/i;

/** Schemas whose values are secrets, whatever their field is called (`secretValue`). */
const secretSchemas = new WeakSet<z.ZodType>();

/**
 * Marks a schema as holding a secret (a pack secret's `value`, an SSH credential): `parseInput`
 * never sends its value back in an error, whatever the field that holds it is called. Mark the
 * finished schema (after its refinements); wrapping it (`.optional()`, `.nullable()`) keeps the mark.
 *
 * @example
 *   export const SecretPutBody = z.strictObject({ value: secretValue(z.string().min(1)) });
 */
export function secretValue<S extends z.ZodType>(schema: S): S {
  secretSchemas.add(schema);
  return schema;
}

/** The schema a wrapper stands for: optional, nullable, default… and the input side of a pipe. */
function unwrapped(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
  const inner = def.innerType ?? def.in;
  return inner ? unwrapped(inner) : schema;
}

/** Names of the fields of an object schema (nested ones, array items and union branches too) whose values are secrets. */
function secretFieldsOf(schema: z.ZodType, into = new Set<string>()): Set<string> {
  const def = unwrapped(schema)._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; options?: z.ZodType[] };
  if (def.element) secretFieldsOf(def.element, into);
  for (const option of def.options ?? []) secretFieldsOf(option, into);
  for (const [name, field] of Object.entries(def.shape ?? {})) {
    let current: z.ZodType | undefined = field;
    while (current && !secretSchemas.has(current)) {
      const inner = current._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
      current = inner.innerType ?? inner.in;
    }
    if (current) into.add(name);
    else secretFieldsOf(field, into);
  }
  return into;
}

const secretFieldCache = new WeakMap<z.ZodType, Set<string>>();

function secretFields(schema: z.ZodType): Set<string> {
  let fields = secretFieldCache.get(schema);
  if (!fields) {
    fields = secretFieldsOf(schema);
    secretFieldCache.set(schema, fields);
  }
  return fields;
}

/** Longest string value echoed back in an error. */
const ECHO_MAX_CHARS = 200;

/**
 * The `value` of a validation error's details, for a short scalar only: a client's long or
 * nested input is not sent back to it (and a deeply nested one could not be written out).
 */
export function echoedValue(value: unknown): { value?: unknown } {
  const short = value === null || typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= ECHO_MAX_CHARS);
  return short ? { value } : {};
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cursor: unknown = input;
  for (const part of path) {
    if (cursor === null || typeof cursor !== 'object') return undefined;
    cursor = (cursor as Record<PropertyKey, unknown>)[part];
  }
  return cursor;
}

/**
 * Parses `input` with a zod schema or throws a ValidationError whose details name the
 * first bad field, its value (a short scalar's, never a secret's) and the issue, plus every
 * issue found. Secrets are fields named as one (`password`, `token`…) and fields whose schema is
 * marked with `secretValue`; a whole input that is not what the schema wants (a bare string
 * where an object belongs, which may be the secret itself) is not echoed either.
 *
 * @example
 *   const body = parseInput(RegisterBody, req.body);
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const marked = secretFields(schema);
  const issues = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || what;
    const secret = issue.path.length === 0 || issue.path.some((p) => SECRET_FIELD.test(String(p)) || marked.has(String(p)));
    return { field, issue: issue.message, ...(secret ? {} : echoedValue(valueAt(input, issue.path) ?? null)) };
  });
  const first = issues[0]!;
  throw new ValidationError(`Invalid ${what}: ${first.field}: ${first.issue}`, { ...first, issues });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a path segment can be an id at all: one that cannot is answered as not found before it
 * reaches a `uuid` column, which would refuse it with a database error.
 *
 * @example
 *   const org = isUuid(orgId) ? await orgs.findById(orgId) : undefined;
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
