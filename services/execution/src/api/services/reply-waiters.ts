import type { RunOutcome } from '@svc/contracts';

/**
 * Synchronous callers waiting for their task's outcome in this process. The worker sends the
 * outcome to this process's reply queue; whichever arrives first, outcome or deadline, wins.
 */
export class ReplyWaiters {
  private readonly waiting = new Map<string, (outcome: RunOutcome | null) => void>();

  /** Resolves with the outcome, or null when `ms` pass first. */
  wait(taskId: string, ms: number): Promise<RunOutcome | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(taskId, null), ms);
      this.waiting.set(taskId, (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }

  deliver(outcome: RunOutcome): void {
    this.settle(outcome.task_id, outcome);
  }

  /** Stops waiting for a task whose job never left (its wait resolves null at once). */
  cancel(taskId: string): void {
    this.settle(taskId, null);
  }

  private settle(taskId: string, outcome: RunOutcome | null): void {
    const resolve = this.waiting.get(taskId);
    if (!resolve) return;
    this.waiting.delete(taskId);
    resolve(outcome);
  }
}
