import type { ErrorObject, ValidateFunction } from 'ajv';
import { echoedValue, ValidationError } from '@svc/core';
import { compileInputSchemaFunction, InputValidationTimeoutError } from '@svc/pack-sdk';

/** Where a JSON pointer points inside `data`. */
function valueAt(data: unknown, pointer: string): unknown {
  let cursor: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    if (cursor === null || typeof cursor !== 'object') return undefined;
    cursor = (cursor as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cursor;
}

function describe(error: ErrorObject, input: unknown) {
  const path = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
  const field = path.join('.') || 'input';
  return { field, ...echoedValue(valueAt(input, error.instancePath) ?? null), issue: error.message ?? 'is invalid' };
}

/**
 * Validates command input against the command's `input_schema` as the registry read it at
 * publish (`compileInputSchemaFunction` of `@svc/pack-sdk`: draft 2020-12 unless `$schema`
 * names draft-07, each schema on its own so that `$id`s of different packs and versions never
 * meet), compiling each schema once per pack version.
 */
export class InputValidator {
  private readonly compiled = new Map<string, ValidateFunction>();

  validate(cacheKey: string, schema: Record<string, unknown>, input: unknown): void {
    const validate = this.compiled.get(cacheKey) ?? this.compile(cacheKey, schema);
    if (this.passes(validate, input)) return;
    const issues = (validate.errors ?? []).map((e) => describe(e, input));
    const first = issues[0] ?? { field: 'input', value: null, issue: 'is invalid' };
    throw new ValidationError(`Invalid input: ${first.field} ${first.issue}`, { ...first, issues });
  }

  /** A schema that recurses or branches is held to a time limit; past it the input is refused. */
  private passes(validate: ValidateFunction, input: unknown): boolean {
    try {
      return validate(input);
    } catch (err) {
      if (!(err instanceof InputValidationTimeoutError)) throw err;
      throw new ValidationError(`Invalid input: ${err.message}`, { field: 'input', issue: err.message, limit_ms: err.limitMs });
    }
  }

  private compile(cacheKey: string, schema: Record<string, unknown>): ValidateFunction {
    const validate = compileInputSchemaFunction(schema);
    this.compiled.set(cacheKey, validate);
    return validate;
  }

  /** Forgets compiled schemas of an uninstalled pack. */
  forget(prefix: string): void {
    for (const key of this.compiled.keys()) if (key.startsWith(prefix)) this.compiled.delete(key);
  }
}
