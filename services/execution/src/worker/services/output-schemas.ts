import { compileInputSchema, InputValidationTimeoutError, type InputValidator } from '@svc/pack-sdk';
import type { PackManifests } from './pack-manifests.js';

/** The pack's error when a result does not match its command's `output_schema`. */
export const OUTPUT_SCHEMA_ERROR_TYPE = 'OutputSchemaError';

/**
 * Checks results against the `output_schema` their command declares in its unpacked
 * `pack.yaml` (compiled once per version and command; the registry checked at publish that it
 * compiles). A result that does not match is the pack's failure, named by its path, whatever
 * the caller (REST, MCP, a task): a client that was promised a shape gets it or an error.
 */
export class OutputSchemas {
  readonly #validators = new Map<string, Promise<InputValidator | null>>();

  constructor(private readonly manifests: PackManifests) {}

  /** Why `result` does not match the command's `output_schema`; undefined when it does, or there is none. */
  async mismatch(packDir: string, command: string, result: unknown): Promise<string | undefined> {
    const validate = await this.validatorOf(packDir, command);
    if (!validate) return undefined;
    let issues;
    try {
      issues = validate(result);
    } catch (err) {
      if (!(err instanceof InputValidationTimeoutError)) throw err;
      return `the result could not be checked against output_schema in time`;
    }
    const [first] = issues;
    return first ? `the result does not match output_schema: ${first.field}: ${first.message}` : undefined;
  }

  private validatorOf(packDir: string, command: string): Promise<InputValidator | null> {
    const key = `${packDir}\u0000${command}`;
    let validator = this.#validators.get(key);
    if (!validator) {
      validator = this.manifests.of(packDir).then((manifest) => {
        const schema = manifest.commands.find((c) => c.name === command)?.output_schema;
        return schema ? compileInputSchema(schema) : null;
      });
      validator.catch(() => this.#validators.delete(key));
      this.#validators.set(key, validator);
    }
    return validator;
  }
}
