import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { createErrorHandler, toErrorSchema, unwrapErrorHandler, validationDataMerge, type RJSFSchema, type RJSFValidationError, type ValidationData, type ValidatorType } from '@rjsf/utils';

/** Keywords that only say "something below failed": the failure below is reported on its own. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'additionalItems', 'unevaluatedProperties']);

/** `#/a/0/b` → `.a.0.b`, the path form rjsf's error schema reads. */
const propertyOf = (instanceLocation: string) => instanceLocation.replace(/^#/, '').replace(/\//g, '.');

function errorOf(unit: OutputUnit): RJSFValidationError {
  let property = propertyOf(unit.instanceLocation);
  // A missing property is the missing field's error, so the form shows it under that field.
  const missing = unit.keyword === 'required' ? /required property "([^"]+)"/.exec(unit.error)?.[1] : undefined;
  if (missing) property = `${property}.${missing}`;
  const message = missing ? 'is required' : unit.error.replace(/^Instance /, '');
  return { name: unit.keyword, property, message, stack: `${property.replace(/^\./, '') || 'input'} ${message}`.trim(), schemaPath: unit.keywordLocation };
}

/**
 * The run form's validator for `@rjsf/core`, on `@cfworker/json-schema`, which interprets a
 * schema instead of compiling it into code. `@rjsf/validator-ajv8` compiles each schema with
 * `new Function`: the console's policy forbids that (no `unsafe-eval`), and the schemas are
 * packs' own, written by other tenants, which must never become code on the console's origin.
 * The platform validates again on every run (ajv, on the server).
 */
export class InterpretingValidator implements ValidatorType {
  #validators = new WeakMap<object, Validator>();

  #validatorFor(schema: RJSFSchema, rootSchema?: RJSFSchema): Validator {
    let validator = this.#validators.get(schema);
    if (!validator) {
      // A sub-schema's `$ref`s point into the root's definitions.
      const definitions = rootSchema && rootSchema !== schema ? { definitions: rootSchema.definitions, $defs: rootSchema.$defs } : {};
      validator = new Validator({ ...definitions, ...(schema as Schema) } as Schema, '2020-12', false);
      this.#validators.set(schema, validator);
    }
    return validator;
  }

  #errors(schema: RJSFSchema, formData: unknown, rootSchema?: RJSFSchema): RJSFValidationError[] {
    const { errors } = this.#validatorFor(schema, rootSchema).validate(formData ?? {});
    return errors.filter((unit) => !WRAPPERS.has(unit.keyword)).map(errorOf);
  }

  validateFormData(formData: unknown, schema: RJSFSchema, customValidate?: Parameters<ValidatorType['validateFormData']>[2], transformErrors?: Parameters<ValidatorType['validateFormData']>[3], uiSchema?: Parameters<ValidatorType['validateFormData']>[4]): ValidationData<unknown> {
    let errors = this.#errors(schema, formData);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const data: ValidationData<unknown> = { errors, errorSchema: toErrorSchema(errors) };
    if (!customValidate) return data;
    const custom = customValidate(formData, createErrorHandler(formData), uiSchema);
    return validationDataMerge(data, unwrapErrorHandler(custom));
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    try {
      return this.#validatorFor(schema, rootSchema).validate(formData ?? {}).valid;
    } catch {
      return false;
    }
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      return { errors: this.#validatorFor(schema).validate(formData ?? {}).errors as Result[] };
    } catch (err) {
      return { validationError: err as Error };
    }
  }
}

export const schemaValidator = new InterpretingValidator();
