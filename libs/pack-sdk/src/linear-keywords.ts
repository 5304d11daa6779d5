import type Ajv from 'ajv';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * A schema `pattern` (or `patternProperties` key) compiled by RE2JS, which matches in time
 * linear in the input: `^(a+)+$` against a long string of `a`s takes microseconds, where a
 * backtracking engine takes minutes. RE2 has no backreferences or lookaround; such patterns
 * fail to compile, so a schema using them is refused when the pack is published.
 */
class LinearRegExp implements RegExpLike {
  readonly #compiled: RE2JS;

  constructor(
    readonly source: string,
    readonly flags: string,
  ) {
    try {
      this.#compiled = RE2JS.compile(source);
    } catch (err) {
      throw new Error(
        `pattern ${JSON.stringify(source)} is not supported: input_schema patterns run on a linear-time engine (RE2 syntax: no backreferences, lookahead or lookbehind): ${(err as Error).message}`,
      );
    }
  }

  /** Unanchored search, as JSON Schema's `pattern` means. */
  test(text: string): boolean {
    return this.#compiled.matcher(text).find();
  }

  /** ajv keys its compiled patterns by this text: two patterns must never share it. */
  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

/**
 * ajv's `code.regExp` option: every `pattern` of a compiled schema runs on RE2JS.
 *
 * @example
 *   new Ajv({ code: { regExp: linearRegExp } });
 */
export const linearRegExp: RegExpEngine = Object.assign((source: string, flags: string) => new LinearRegExp(source, flags), { code: 'linearRegExp' });

/** One item's canonical text: equal JSON values (objects in any key order) give equal text. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

interface UniqueItemsValidate {
  (data: unknown[]): boolean;
  errors?: Array<{ keyword: string; message: string; params: { i: number; j: number } }>;
}

function checkUniqueItems(unique: boolean): UniqueItemsValidate {
  const validate: UniqueItemsValidate = (data) => {
    validate.errors = undefined;
    if (!unique) return true;
    const seen = new Map<string, number>();
    for (let i = 0; i < data.length; i += 1) {
      const key = canonical(data[i]);
      const j = seen.get(key);
      if (j !== undefined) {
        validate.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }];
        return false;
      }
      seen.set(key, i);
    }
    return true;
  };
  return validate;
}

/**
 * Replaces ajv's `uniqueItems`, which compares every pair of items (20,000 small objects took
 * 12 s), with one pass that keys each item by its canonical JSON text: time linear in the
 * array's size. Errors read as ajv's own (`params: {i, j}`).
 */
export function useLinearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, compile: checkUniqueItems });
}
