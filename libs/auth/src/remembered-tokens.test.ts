import { afterEach, describe, expect, it, vi } from 'vitest';
import { RememberedTokens } from './remembered-tokens.js';

describe('RememberedTokens', () => {
  afterEach(() => vi.useRealTimers());

  it('answers what a token was verified to say until it expires, then forgets it', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const tokens = new RememberedTokens<{ sub: string }>();
    tokens.remember('a.b.c', { sub: 'ada' }, 1_060_000);
    expect(tokens.get('a.b.c')).toEqual({ sub: 'ada' });
    expect(tokens.get('a.b.x')).toBeUndefined();
    vi.setSystemTime(1_060_000);
    expect(tokens.get('a.b.c')).toBeUndefined();
    vi.setSystemTime(1_000_000);
    expect(tokens.get('a.b.c')).toBeUndefined();
  });

  it('forgets every token at once when full, and keeps the one it was given', () => {
    const tokens = new RememberedTokens<number>();
    const later = Date.now() + 60_000;
    for (let i = 0; i < 10_000; i++) tokens.remember(`t${i}`, i, later);
    expect(tokens.get('t9999')).toBe(9999);
    tokens.remember('t10000', 10_000, later);
    expect(tokens.get('t0')).toBeUndefined();
    expect(tokens.get('t10000')).toBe(10_000);
  });
});
