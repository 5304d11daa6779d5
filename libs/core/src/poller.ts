import { backoffDelayMs } from './backoff.js';

export interface PollerOptions {
  /**
   * One look for work: resolves to when the next one is wanted (ms; 0: at once; `busyMs` after a
   * look that found work; when the next known work is due), or `undefined` when it found nothing
   * to do and knows of nothing coming, so that the pauses grow.
   */
  look: () => Promise<number | undefined>;
  /** The first of the pauses after looks that found nothing (and the first look's, by default). */
  busyMs: number;
  /** The longest pause (never shorter than `busyMs`): after each look that finds nothing the pause doubles, up to this; no look asks for more. */
  idleMs: number;
  /** A look that failed (the database away); the next comes after `busyMs`. */
  onError: (err: Error) => void;
}

/**
 * When a process looks for work that no message announces (an outbox's unsent rows, due
 * deliveries, due schedules): every `busyMs` while there is some, backing off to `idleMs` while
 * there is none, and sooner when the process learns of work itself (`wake`). An idle process so
 * asks its database almost nothing: every statement costs a replica's CPU and, on the embedded
 * database, memory V8 would otherwise give back.
 *
 * @example
 *   const relay = new Poller({ look: async () => ((await sendDue()) > 0 ? 5000 : undefined), busyMs: 5000, idleMs: 30_000, onError });
 *   relay.start();        // first look after busyMs
 *   relay.wake(retryInMs); // a row this process failed to send is due again then
 *   await relay.stop();
 */
export class Poller {
  readonly #options: PollerOptions;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (epoch ms). */
  #dueAt = Infinity;
  /** Looks in a row that found nothing. */
  #idleLooks = 0;
  #looking: Promise<void> | undefined;
  /** The soonest a `wake` during a look asked for (epoch ms): the look's own answer may not know of it. */
  #wokenAt = Infinity;
  #started = false;

  constructor(options: PollerOptions) {
    this.#options = { ...options, idleMs: Math.max(options.busyMs, options.idleMs) };
  }

  /** Starts looking: the first look after `firstInMs` (default `busyMs`). */
  start(firstInMs = this.#options.busyMs): void {
    this.#started = true;
    this.#schedule(firstInMs);
  }

  /**
   * Work will be due in `inMs` (default now): the next look comes then at the latest, and the
   * pauses after it start over from `busyMs`. Before `start()` and after `stop()` it does nothing.
   */
  wake(inMs = 0): void {
    if (!this.#started) return;
    this.#idleLooks = 0;
    const at = Date.now() + inMs;
    if (this.#looking) this.#wokenAt = Math.min(this.#wokenAt, at);
    else if (at < this.#dueAt) this.#schedule(inMs);
  }

  /** A look now; one under way is joined, not doubled. The next is scheduled from its answer. */
  look(): Promise<void> {
    this.#looking ??= this.#options
      .look()
      .then(
        (nextInMs) => this.#after(nextInMs),
        (err: Error) => {
          this.#options.onError(err);
          this.#after(this.#options.busyMs);
        },
      )
      .finally(() => {
        this.#looking = undefined;
      });
    return this.#looking;
  }

  /** Stops looking, after the look under way. */
  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    this.#dueAt = Infinity;
    await this.#looking;
  }

  #after(nextInMs: number | undefined): void {
    const woken = this.#wokenAt - Date.now();
    this.#wokenAt = Infinity;
    if (!this.#started) return;
    this.#idleLooks = nextInMs === undefined && woken === Infinity ? this.#idleLooks + 1 : 0;
    const pause = nextInMs ?? backoffDelayMs({ baseMs: this.#options.busyMs, capMs: this.#options.idleMs }, this.#idleLooks);
    this.#schedule(Math.min(pause, woken, this.#options.idleMs));
  }

  #schedule(inMs: number): void {
    clearTimeout(this.#timer);
    const delay = Math.max(0, inMs);
    this.#dueAt = Date.now() + delay;
    this.#timer = setTimeout(() => {
      this.#dueAt = Infinity;
      void this.look();
    }, delay);
    // A poller never keeps a process alive on its own.
    this.#timer.unref();
  }
}
