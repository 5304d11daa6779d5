export interface BackoffSettings {
  /** The pause after the first failed try; each later one doubles it. */
  baseMs: number;
  /** The longest pause. */
  capMs: number;
  /**
   * How far each pause is spread, as a fraction either way (0.2: ±20 %), so that parties that
   * failed together do not try again together. Default 0: exactly the doubling.
   */
  jitter?: number;
}

/**
 * The pause before the next try after the `attempts`-th failed one: `baseMs` doubling up to
 * `capMs`. Every wait-and-try-again of the platform (webhook and e-mail deliveries, the outbox's
 * relay, command retries, bus reconnects) takes its pause from here.
 *
 * @example
 *   backoffDelayMs({ baseMs: 1000, capMs: 60_000 }, 3); // 4000
 *   backoffDelayMs({ baseMs: 30_000, capMs: 6 * 3600_000, jitter: 0.2 }, 1); // 24,000-36,000
 */
export function backoffDelayMs({ baseMs, capMs, jitter = 0 }: BackoffSettings, attempts: number, random = Math.random): number {
  const plain = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), capMs);
  return jitter === 0 ? plain : Math.round(plain * (1 - jitter + 2 * jitter * random()));
}
