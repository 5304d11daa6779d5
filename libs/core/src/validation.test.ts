import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppError } from './errors.js';
import { parseInput, secretValue } from './validation.js';

const Body = z.strictObject({ email: z.string().email(), password: z.string().min(8), nested: z.object({ n: z.number() }).optional() });

function failure(input: unknown): AppError {
  try {
    parseInput(Body, input);
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a validation error');
}

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(Body, { email: 'a@b.co', password: '12345678' })).toEqual({ email: 'a@b.co', password: '12345678' });
  });

  it('names the field, its value and the issue', () => {
    const err = failure({ email: 'nope', password: '12345678' });
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.status).toBe(400);
    expect(err.details).toMatchObject({ field: 'email', value: 'nope' });
    expect(typeof err.details.issue).toBe('string');
  });

  it('names nested fields by their path', () => {
    expect(failure({ email: 'a@b.co', password: '12345678', nested: { n: 'x' } }).details.field).toBe('nested.n');
  });

  it('never echoes the value of a secret field', () => {
    const err = failure({ email: 'a@b.co', password: 'short' });
    expect(err.details.field).toBe('password');
    expect(err.details).not.toHaveProperty('value');
    expect(JSON.stringify(err.details)).not.toContain('short');
  });

  it('echoes short scalars only, never long or nested input', () => {
    expect(failure({ email: 'a@b.co', password: '12345678', nested: { n: 'x'.repeat(200) } }).details).toMatchObject({ field: 'nested.n', value: 'x'.repeat(200) });
    expect(failure({ email: 'a@b.co', password: '12345678', nested: { n: 'x'.repeat(201) } }).details).not.toHaveProperty('value');
    const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    const err = failure({ email: 'a@b.co', password: '12345678', nested: deep });
    expect(err.details).toMatchObject({ field: 'nested' });
    expect(err.details).not.toHaveProperty('value');
    expect(() => JSON.stringify(err.details)).not.toThrow();
    expect(failure({ email: 'a@b.co', password: '12345678', nested: null }).details).toMatchObject({ field: 'nested', value: null });
  });

  it('rejects unknown fields and non-objects', () => {
    expect(failure({ email: 'a@b.co', password: '12345678', extra: 1 }).code).toBe('VALIDATION_FAILED');
    expect(failure('text').details.field).toBe('body');
  });

  it('never echoes a value whose schema is marked secret, whatever its field is called, nor a whole input of the wrong type', () => {
    const Secret = z.strictObject({ value: secretValue(z.string().refine((v) => !v.includes('!'), 'no !')), nested: z.object({ token2: secretValue(z.string().min(9)).optional(), note: z.string().max(2) }).optional() });
    const attempt = (input: unknown) => {
      try {
        parseInput(Secret, input);
      } catch (err) {
        return err as AppError;
      }
      throw new Error('expected a validation error');
    };
    for (const input of [{ value: 'hunter2!' }, { value: 'ok', nested: { token2: 'hunter2', note: 'ok' } }, 'hunter2', { value: 'hunter2!', extra: 1 }]) {
      const err = attempt(input);
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(err.details), JSON.stringify(input)).not.toContain('hunter2');
    }
    expect(attempt({ value: 'ok', nested: { note: 'long' } }).details).toMatchObject({ field: 'nested.note', value: 'long' });
    // In a branch of a union too (developer mode's access code).
    const Either = z.union([z.strictObject({ name: z.string() }), z.strictObject({ code: secretValue(z.string().regex(/^SVC-/)) })]);
    expect(() => parseInput(Either, { code: 'hunter2' })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    try {
      parseInput(Either, { code: 'hunter2' });
    } catch (err) {
      expect(JSON.stringify((err as AppError).details)).not.toContain('hunter2');
    }
  });
});
