import { describe, expect, it } from 'vitest';
import { selection } from './only.js';

describe('BENCH_ONLY', () => {
  it('wants every figure when unset or empty', () => {
    for (const value of [undefined, '', ' , ']) {
      const { partial, wanted } = selection(value);
      expect(partial).toBe(false);
      expect(wanted('B4')).toBe(true);
    }
  });

  it('wants only the figures it names', () => {
    const { partial, wanted } = selection('B1, L1');
    expect(partial).toBe(true);
    expect(wanted('L1')).toBe(true);
    expect(wanted('B2', 'B1')).toBe(true);
    expect(wanted('B4')).toBe(false);
  });

  it('refuses a figure it does not know', () => {
    expect(() => selection('B1,B9')).toThrow(/B9/);
  });
});
