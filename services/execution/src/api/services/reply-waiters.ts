import type { RunOutcome, RunProgress, TaskProgress } from '@svc/contracts';

interface Waiter {
  resolve: (outcome: RunOutcome | null) => void;
  onProgress?: (progress: TaskProgress) => void;
}

/**
 * Synchronous callers waiting for their task's outcome in this process. The worker sends the
 * outcome to this process's reply queue; whichever arrives first, outcome or deadline, wins.
 * Progress reports (`ctx.progress`) come the same way and go to the caller while it waits.
 */
export class ReplyWaiters {
  private readonly waiting = new Map<string, Waiter>();

  /** Resolves with the outcome, or null when `ms` pass first; `onProgress` hears the run's reports meanwhile. */
  wait(taskId: string, ms: number, onProgress?: (progress: TaskProgress) => void): Promise<RunOutcome | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(taskId, null), ms);
      this.waiting.set(taskId, {
        resolve: (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        },
        ...(onProgress ? { onProgress } : {}),
      });
    });
  }

  deliver(reply: RunOutcome | RunProgress): void {
    if (reply.status === 'progress') {
      this.waiting.get(reply.task_id)?.onProgress?.(reply.progress);
      return;
    }
    this.settle(reply.task_id, reply);
  }

  /** Stops waiting for a task whose job never left (its wait resolves null at once). */
  cancel(taskId: string): void {
    this.settle(taskId, null);
  }

  private settle(taskId: string, outcome: RunOutcome | null): void {
    const waiter = this.waiting.get(taskId);
    if (!waiter) return;
    this.waiting.delete(taskId);
    waiter.resolve(outcome);
  }
}
