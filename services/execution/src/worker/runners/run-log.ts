import type { RunLogLine } from '@svc/contracts';

/** What one run keeps of its log for its caller: the first 16 KiB of lines (each counting 32 bytes more than its text). */
export const RUN_LOG_BYTES = 16 * 1024;
/** Longest line kept; the rest of a longer one is cut. */
export const RUN_LOG_LINE_CHARS = 2048;
const LINE_OVERHEAD_BYTES = 32;

/**
 * The lines a run logged (`ctx.log`, and its console while it ran alone in its runner), kept
 * for the task's owner beside the result. Bounded: past `RUN_LOG_BYTES` lines are counted, not
 * kept, and the last line says how many were dropped. The worker's own log (for operators) is
 * separate and has its own budget (`SVC_RUNNER_LOG_KIB`).
 *
 * @example
 *   const log = new RunLog();
 *   await pool.run({ ...request, log });
 *   ending.logs = log.lines();
 */
export class RunLog {
  readonly #lines: RunLogLine[] = [];
  #bytes = 0;
  #dropped = 0;

  add(level: string, text: string): void {
    const message = text.length > RUN_LOG_LINE_CHARS ? `${text.slice(0, RUN_LOG_LINE_CHARS)}…` : text;
    const cost = Buffer.byteLength(message) + LINE_OVERHEAD_BYTES;
    if (this.#dropped > 0 || this.#bytes + cost > RUN_LOG_BYTES) {
      this.#dropped += 1;
      return;
    }
    this.#bytes += cost;
    this.#lines.push({ at: new Date().toISOString(), level, message });
  }

  /** The kept lines, and a last one counting the dropped when there were any. */
  lines(): RunLogLine[] {
    if (this.#dropped === 0) return [...this.#lines];
    return [...this.#lines, { at: new Date().toISOString(), level: 'warn', message: `${this.#dropped} more line(s) dropped: a run keeps ${RUN_LOG_BYTES / 1024} KiB of log` }];
  }
}
