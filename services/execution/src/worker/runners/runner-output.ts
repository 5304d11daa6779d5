/** How much a pack may log: per call, and per minute for output that names no call. */
export interface OutputLimits {
  /** Bytes of log kept per call (and per window for output that names no call), each message counting 64 more than its text. */
  bytes: number;
  /** The window of the runner's budget for output that names no call. */
  windowMs: number;
  /** Dropped bytes past which the runner is stopped as flooding: this many times `bytes`. */
  floodFactor: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { bytes: 64 * 1024, windowMs: 60_000, floodFactor: 64 };

/**
 * What each message costs against a budget besides its text, so that a stream of empty
 * messages (cheap to send, not free to read) runs out like a stream of long ones.
 */
export const MESSAGE_OVERHEAD_BYTES = 64;

/** What `admit` decided about one message. */
export type Admission = 'kept' | 'first-drop' | 'dropped' | 'flood';

/**
 * The log budget of one call (or of a runner's output that names no call, renewed every
 * window): messages are kept until `bytes` have been, then dropped and counted; dropping
 * more than `floodFactor` times the budget means the pack is flooding on purpose.
 */
export class OutputBudget {
  readonly dropped = { bytes: 0, messages: 0 };
  readonly #limits: OutputLimits;
  readonly #startedAt = Date.now();
  #kept = 0;
  #flooded = false;

  constructor(limits: OutputLimits) {
    this.#limits = limits;
  }

  get limitBytes(): number {
    return this.#limits.bytes;
  }

  /** A runner's budget for output that names no call is renewed once its window has passed. */
  get expired(): boolean {
    return Date.now() - this.#startedAt > this.#limits.windowMs;
  }

  admit(bytes: number): Admission {
    if (this.dropped.messages === 0 && this.#kept + bytes + MESSAGE_OVERHEAD_BYTES <= this.#limits.bytes) {
      this.#kept += bytes + MESSAGE_OVERHEAD_BYTES;
      return 'kept';
    }
    this.dropped.messages += 1;
    this.dropped.bytes += bytes;
    if (this.dropped.messages === 1) return 'first-drop';
    const weight = this.dropped.bytes + this.dropped.messages * MESSAGE_OVERHEAD_BYTES;
    if (!this.#flooded && weight > this.#limits.bytes * this.#limits.floodFactor) {
      this.#flooded = true;
      return 'flood';
    }
    return 'dropped';
  }
}
