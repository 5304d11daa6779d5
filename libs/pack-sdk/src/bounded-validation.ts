import { createContext, Script } from 'node:vm';
import type { ValidateFunction } from 'ajv';

/** Longest a schema that is not linear may take over one input before the check is given up. */
export const VALIDATION_TIME_LIMIT_MS = 50;

/** Thrown when a schema outside the linear class took longer than the limit over an input. */
export class InputValidationTimeoutError extends Error {
  override readonly name = 'InputValidationTimeoutError';

  constructor(readonly limitMs: number) {
    super(`the input could not be checked against input_schema within ${limitMs} ms`);
  }
}

/** Keywords that apply at most one subschema to each part of an input, and none to the input itself. */
const ONE_SUBSCHEMA_PER_CHILD = new Set(['properties', 'additionalProperties', 'items', 'prefixItems', 'additionalItems', 'propertyNames']);
/** Keywords that check the value itself in time linear in its size, or are annotations. */
const LEAF = new Set([
  '$schema', '$id', '$comment', '$anchor', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly',
  'type', 'enum', 'const', 'required', 'dependentRequired', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum',
  'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'contentEncoding', 'contentMediaType',
]);
/** Definitions are only reached through `$ref`, which the linear class has none of. */
const UNREACHABLE = new Set(['$defs', 'definitions']);

function subschemas(keyword: string, value: unknown): unknown[] {
  if (keyword === 'properties') return value && typeof value === 'object' ? Object.values(value) : [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Whether checking any input against `schema` takes time linear in the input: no keyword applies
 * two subschemas to one value (no `$ref`, `allOf`/`anyOf`/`oneOf`/`not`, `if`, `contains`,
 * `patternProperties`, `dependentSchemas`, `unevaluated*`), so each part of an input meets at
 * most one subschema. Patterns (RE2) and `uniqueItems` are linear in this package.
 */
export function isLinearSchema(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return false;
  for (const [keyword, value] of Object.entries(schema)) {
    if (LEAF.has(keyword) || UNREACHABLE.has(keyword)) continue;
    if (!ONE_SUBSCHEMA_PER_CHILD.has(keyword)) return false;
    if (!subschemas(keyword, value).every(isLinearSchema)) return false;
  }
  return true;
}

const RUN = new Script('result = validate(data)');

/**
 * `validate`, bounded: a schema outside the linear class (recursion through `$ref`, branches
 * that re-check the same value) can take exponential time over a small input, so it runs
 * under V8's execution timeout and throws InputValidationTimeoutError past `limitMs`. Linear
 * schemas, the common case, run as they are (the timeout's watchdog thread costs ~0.1 ms a call).
 */
export function boundedValidator(validate: ValidateFunction, schema: unknown, limitMs = VALIDATION_TIME_LIMIT_MS): ValidateFunction {
  if (isLinearSchema(schema)) return validate;
  const context = createContext({ validate, data: undefined as unknown, result: false });
  const bounded = ((data: unknown) => {
    context.data = data;
    try {
      RUN.runInContext(context, { timeout: limitMs });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new InputValidationTimeoutError(limitMs);
      throw err;
    } finally {
      context.data = undefined;
    }
    bounded.errors = validate.errors;
    return context.result as boolean;
  }) as ValidateFunction;
  return Object.assign(bounded, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}
