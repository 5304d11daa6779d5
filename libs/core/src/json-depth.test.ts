import { describe, expect, it } from 'vitest';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';

const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}[1]${'}'.repeat(depth - 1)}`;

describe('jsonNestedDeeperThan', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, as text and as bytes`, () => {
    expect(jsonNestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestedDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestedDeeperThan(Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonNestedDeeperThan(Buffer.from(nested(5000)))).toBe(true);
  });

  it('counts siblings once, not their sum', () => {
    expect(jsonNestedDeeperThan('[[1],[2],{"a":3}]', 2)).toBe(false);
    expect(jsonNestedDeeperThan('[[1],[2],{"a":3}]', 1)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestedDeeperThan('{"a":"[[[{{{","b":"\\"[[["}', 1)).toBe(false);
    expect(jsonNestedDeeperThan(Buffer.from('{"é":"\\\\","b":[1]}'), 1)).toBe(true);
  });
});
