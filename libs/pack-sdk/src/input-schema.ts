import Ajv07, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { issuesFromAjv, type SchemaIssue } from './ajv-issues.js';
import { linearRegExp, useLinearUniqueItems } from './linear-keywords.js';
import { boundedValidator } from './bounded-validation.js';

export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

type Dialect = 'draft-07' | '2020-12';

/** The dialects a command's `input_schema` may declare in `$schema`; none means draft 2020-12. */
const DIALECTS: Record<string, Dialect> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft/2020-12/schema': '2020-12',
};

/**
 * Unknown keywords and formats are refused (a typo such as `requird` would otherwise silently
 * validate nothing); type-coupling rules are left to the author. Patterns run on a linear-time
 * engine, so no input can make a pack's `pattern` backtrack for seconds.
 */
const AJV_OPTIONS = {
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  allErrors: true,
  logger: false,
  code: { regExp: linearRegExp },
} as const;

/** Thrown when an `input_schema` is not a usable JSON Schema; the message says why. */
export class InputSchemaError extends Error {
  override readonly name = 'InputSchemaError';
}

export interface InputValidator {
  /** The problems of `input` against the schema; empty when it is valid. */
  (input: unknown): SchemaIssue[];
}

function newAjv(dialect: Dialect, options: { validateSchema: boolean }) {
  const ajv = dialect === 'draft-07' ? new Ajv07({ ...AJV_OPTIONS, ...options }) : new Ajv2020({ ...AJV_OPTIONS, ...options });
  addFormats(ajv);
  useLinearUniqueItems(ajv);
  return ajv;
}

/**
 * Checking a schema against its dialect's meta-schema is the costly part of a first compile;
 * one checker per dialect does that for every schema, while each compile below gets a fresh
 * instance that skips it.
 */
const metaCheckers = new Map<Dialect, ReturnType<typeof newAjv>>();
function metaChecker(dialect: Dialect) {
  let checker = metaCheckers.get(dialect);
  if (!checker) {
    checker = newAjv(dialect, { validateSchema: true });
    metaCheckers.set(dialect, checker);
  }
  return checker;
}

function dialectOf(schema: Record<string, unknown>): Dialect {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  const dialect = typeof declared === 'string' ? DIALECTS[declared.replace(/#$/, '')] : undefined;
  if (!dialect) throw new InputSchemaError(`$schema ${JSON.stringify(declared)} is not supported; use ${DRAFT_2020_12} or ${DRAFT_07}`);
  return dialect;
}

/**
 * Compiles a command's `input_schema` (JSON Schema draft 2020-12, or draft-07 when `$schema`
 * says so) into ajv's validate function, whose `errors` point into the input, or throws
 * InputSchemaError. The root must be `type: object`: command inputs are JSON objects, and MCP
 * tools require it. Each call uses its own ajv instance, so schemas of different packs, or
 * versions of one, never share `$id`s. What the registry accepts at publish is what the
 * execution service checks inputs with. A schema outside the linear class (`isLinearSchema`)
 * gives a validator that throws InputValidationTimeoutError past 50 ms.
 */
export function compileInputSchemaFunction(schema: Record<string, unknown>): ValidateFunction {
  if (schema.type !== 'object') throw new InputSchemaError('the root of input_schema must have type: object');
  const dialect = dialectOf(schema);
  const canonical = { ...schema, $schema: dialect === 'draft-07' ? DRAFT_07 : DRAFT_2020_12 };
  const checker = metaChecker(dialect);
  if (!checker.validateSchema(canonical)) throw new InputSchemaError(`schema is invalid: ${checker.errorsText(checker.errors)}`);
  try {
    return boundedValidator(newAjv(dialect, { validateSchema: false }).compile(canonical), canonical);
  } catch (err) {
    throw new InputSchemaError((err as Error).message);
  }
}

/**
 * `compileInputSchemaFunction` with its answers as issues by field.
 *
 * @example
 *   const validate = compileInputSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
 *   validate({ text: 'hi' }); // []
 *   validate({});             // [{ field: 'text', message: 'is required' }]
 */
export function compileInputSchema(schema: Record<string, unknown>): InputValidator {
  const validate = compileInputSchemaFunction(schema);
  return (input) => (validate(input) ? [] : issuesFromAjv(validate.errors));
}
