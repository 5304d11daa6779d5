import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff.js';

describe('backoffDelayMs', () => {
  it('doubles from the base with every failed try, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempts) => backoffDelayMs({ baseMs: 1000, capMs: 30_000 }, attempts))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(backoffDelayMs({ baseMs: 1000, capMs: 30_000 }, 0)).toBe(1000);
  });

  it('spreads each pause by the jitter either way, and keeps every gap longer than the one before until the cap', () => {
    const settings = { baseMs: 30_000, capMs: 6 * 3600_000, jitter: 0.2 };
    expect(backoffDelayMs(settings, 1, () => 0)).toBe(24_000);
    expect(backoffDelayMs(settings, 1, () => 1)).toBe(36_000);
    expect(backoffDelayMs(settings, 2, () => 0)).toBeGreaterThan(backoffDelayMs(settings, 1, () => 1));
  });
});
