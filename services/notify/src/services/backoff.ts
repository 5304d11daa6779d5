export interface BackoffSettings {
  /** The pause after the first failed try; each later one doubles it. */
  baseMs: number;
  /** The longest pause. */
  capMs: number;
}

/**
 * The pause after the `attempts`-th failed try: `baseMs` doubling up to `capMs`, each spread by
 * ±20 % so that receivers and relays that failed together do not retry together. The spread is
 * narrower than the doubling, so until the cap every gap is longer than the one before it.
 */
export function backoffDelayMs({ baseMs, capMs }: BackoffSettings, attempts: number, random = Math.random): number {
  const plain = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), capMs);
  return Math.round(plain * (0.8 + 0.4 * random()));
}
