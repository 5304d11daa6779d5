import { describe, expect, it } from 'vitest';
import { secretsEqual } from './secret-equal.js';

describe('secretsEqual', () => {
  it('holds for the same secret as text or bytes, and for nothing else', () => {
    expect(secretsEqual('sk-svc-abc', 'sk-svc-abc')).toBe(true);
    expect(secretsEqual(Buffer.from('sig'), 'sig')).toBe(true);
    expect(secretsEqual('sk-svc-abc', 'sk-svc-abd')).toBe(false);
    expect(secretsEqual('sk-svc-ab', 'sk-svc-abc')).toBe(false);
    expect(secretsEqual('', 'x')).toBe(false);
  });
});
