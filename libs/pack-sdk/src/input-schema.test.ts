import { describe, expect, it } from 'vitest';
import { InputValidationTimeoutError, isLinearSchema, VALIDATION_TIME_LIMIT_MS } from './bounded-validation.js';
import { compileInputSchema, InputSchemaError } from './input-schema.js';
import { parseManifest } from './manifest.js';

function elapsed(work: () => unknown): { value: unknown; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

describe('compileInputSchema', () => {
  it('matches patterns in time linear in the input: ^(a+)+$ against 100,000 a and a ! answers at once', () => {
    const validate = compileInputSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(validate({ s: 'aaaa' })).toEqual([]);
    // A backtracking engine takes seconds at 30 characters and doubles with each one more.
    const { value, ms } = elapsed(() => validate({ s: `${'a'.repeat(100_000)}!` }));
    expect(value).toEqual([{ field: 's', message: 'must match pattern "^(a+)+$"' }]);
    expect(ms).toBeLessThan(2_000);
  });

  it('searches unanchored, as JSON Schema means, and keeps each pattern apart', () => {
    const validate = compileInputSchema({ type: 'object', properties: { a: { type: 'string', pattern: 'b' }, c: { type: 'string', pattern: '^\\d+$' } }, patternProperties: { '^x-': { type: 'number' } } });
    expect(validate({ a: 'abc', c: '123', 'x-n': 1 })).toEqual([]);
    expect(validate({ a: 'xyz', c: '12a', 'x-n': 'one' }).map((issue) => issue.field).sort()).toEqual(['a', 'c', 'x-n']);
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', '(?=a)b'],
    ['a lookbehind', '(?<=a)b'],
  ])('refuses %s, which the linear-time engine cannot run, saying so', (_label, pattern) => {
    const compile = () => compileInputSchema({ type: 'object', properties: { s: { type: 'string', pattern } } });
    expect(compile).toThrow(InputSchemaError);
    expect(compile).toThrow(/linear-time engine/);
  });

  it('refuses such a pattern in patternProperties too', () => {
    expect(() => compileInputSchema({ type: 'object', patternProperties: { '(?!x)': { type: 'string' } } })).toThrow(/linear-time engine/);
  });

  it('checks uniqueItems in time linear in the array: 20,000 small objects', () => {
    const validate = compileInputSchema({ type: 'object', properties: { items: { type: 'array', uniqueItems: true } } });
    const items = Array.from({ length: 20_000 }, (_, id) => ({ id, name: `item ${id}` }));
    const { value, ms } = elapsed(() => validate({ items }));
    expect(value).toEqual([]);
    // ajv's pairwise comparison took 12 s on this input.
    expect(ms).toBeLessThan(2_000);
  });

  it('finds duplicates as JSON equality does: objects in any key order, not 1 and "1"', () => {
    const validate = compileInputSchema({ type: 'object', properties: { items: { type: 'array', uniqueItems: true } } });
    expect(validate({ items: [1, '1', [1], { 1: 1 }, null, false, 0] })).toEqual([]);
    expect(validate({ items: [{ a: 1, b: [2, { c: 3 }] }, 'x', { b: [2, { c: 3 }], a: 1 }] })).toEqual([{ field: 'items', message: 'must NOT have duplicate items (items ## 0 and 2 are identical)' }]);
    expect(compileInputSchema({ type: 'object', properties: { items: { type: 'array', uniqueItems: false } } })({ items: [1, 1] })).toEqual([]);
  });
});

/** A schema whose check of one value takes 2^depth steps: each level refers to the next twice. */
function exponentialSchema(depth: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = { [`l${depth}`]: { type: 'string' } };
  for (let level = 0; level < depth; level += 1) $defs[`l${level}`] = { anyOf: [{ $ref: `#/$defs/l${level + 1}` }, { $ref: `#/$defs/l${level + 1}` }] };
  return { type: 'object', properties: { x: { $ref: '#/$defs/l0' } }, $defs };
}

describe('validation bounded in time', () => {
  it('tells linear schemas from those that may re-check one value many times', () => {
    expect(isLinearSchema({ type: 'object', properties: { a: { type: 'array', items: { type: 'string', pattern: '^x' } } }, required: ['a'], additionalProperties: false })).toBe(true);
    expect(isLinearSchema({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } })).toBe(false);
    expect(isLinearSchema({ type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] })).toBe(false);
    expect(isLinearSchema({ type: 'object', patternProperties: { '^a': { type: 'string' } } })).toBe(false);
  });

  it(`gives up on an input after ${VALIDATION_TIME_LIMIT_MS} ms of a schema that branches exponentially`, () => {
    const validate = compileInputSchema(exponentialSchema(40));
    const { value, ms } = elapsed(() => {
      try {
        return validate({ x: 1 });
      } catch (err) {
        return err;
      }
    });
    expect(value).toBeInstanceOf(InputValidationTimeoutError);
    expect(ms).toBeLessThan(2_000);
    // The same validator still answers for inputs it can check in time.
    expect(validate({ y: 1 })).toEqual([]);
  });

  it('refuses at publish an example that cannot be checked in time, as a manifest problem', () => {
    const text = JSON.stringify({
      schema_version: 1,
      pack: { namespace: 'acme', name: 'slow', version: '1.0.0' },
      commands: [{ name: 'slow', entry: 'commands/slow.js', input_schema: exponentialSchema(40), examples: [{ input: { x: 1 } }] }],
    });
    expect(() => parseManifest(text)).toThrow(/could not be checked against input_schema within 50 ms/);
  });
});
