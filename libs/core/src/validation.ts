import type { z } from 'zod';
import { ValidationError } from './errors.js';

const SECRET_FIELD = /password|secret|token|private_key|^key$/i;

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
 * issue found.
 *
 * @example
 *   const body = parseInput(RegisterBody, req.body);
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || what;
    const secret = issue.path.some((p) => SECRET_FIELD.test(String(p)));
    return { field, issue: issue.message, ...(secret ? {} : echoedValue(valueAt(input, issue.path) ?? null)) };
  });
  const first = issues[0]!;
  throw new ValidationError(`Invalid ${what}: ${first.field}: ${first.issue}`, { ...first, issues });
}
