import { describe, expect, it } from 'vitest';
import { AppError, ValidationError } from '@svc/core';
import { InputValidator } from './input-validator.js';

const withId = (type: string) => ({ $id: 'https://schemas.example.test/input', type: 'object', properties: { a: { type } }, required: ['a'] });

function refusal(validate: () => void): Record<string, unknown> {
  try {
    validate();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as AppError).details as Record<string, unknown>;
  }
  throw new Error('the input was accepted');
}

describe('command input validation', () => {
  it('keeps schemas of different packs and versions apart, though they share an $id', () => {
    const validator = new InputValidator();
    validator.validate('pack-1/v1/run', withId('string'), { a: 'text' });
    validator.validate('pack-1/v2/run', withId('number'), { a: 1 });
    validator.validate('pack-2/v1/run', withId('boolean'), { a: true });
    expect(refusal(() => validator.validate('pack-1/v1/run', withId('string'), { a: 1 }))).toMatchObject({ field: 'a', value: 1 });
    expect(refusal(() => validator.validate('pack-1/v2/run', withId('number'), { a: 'text' }))).toMatchObject({ field: 'a', value: 'text' });
  });

  it('reads a schema without $schema as draft 2020-12, as the registry did at publish', () => {
    const validator = new InputValidator();
    const tuple = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } } };
    validator.validate('p/v/tuple', tuple, { pair: ['a', 1] });
    expect(refusal(() => validator.validate('p/v/tuple', tuple, { pair: [1, 'a'] }))).toMatchObject({ field: 'pair.0', value: 1 });
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(refusal(() => validator.validate('p/v/draft07', draft07, { pair: [1, 'a'] }))).toMatchObject({ field: 'pair.0', value: 1 });
  });

  it('names every problem, the first as the summary, with the value it found', () => {
    const validator = new InputValidator();
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, s: { type: 'string' } }, required: ['n', 's'], additionalProperties: false };
    const details = refusal(() => validator.validate('p/v/strict', schema, { n: 0, extra: true }));
    expect(details).toMatchObject({ field: expect.any(String), issue: expect.any(String) });
    expect((details.issues as { field: string }[]).map((i) => i.field).sort()).toEqual(['extra', 'n', 's']);
    expect(details.issues).toContainEqual(expect.objectContaining({ field: 'n', value: 0 }));
  });
});
