import { describe, expect, it } from 'vitest';
import type { TaskProgress } from '@svc/contracts';
import { ReplyWaiters } from './reply-waiters.js';

describe('ReplyWaiters', () => {
  it('hands progress reports to the caller waiting for the run, then its outcome', async () => {
    const waiters = new ReplyWaiters();
    const heard: TaskProgress[] = [];
    const waiting = waiters.wait('t1', 5000, (progress) => heard.push(progress));
    waiters.deliver({ task_id: 't1', status: 'progress', progress: { done: 1, total: 2 } });
    waiters.deliver({ task_id: 'other', status: 'progress', progress: { done: 9 } });
    waiters.deliver({ task_id: 't1', status: 'success', result: 'ok', duration_ms: 3 });
    await expect(waiting).resolves.toMatchObject({ status: 'success', result: 'ok' });
    // A report after the outcome reaches nobody.
    waiters.deliver({ task_id: 't1', status: 'progress', progress: { done: 2, total: 2 } });
    expect(heard).toEqual([{ done: 1, total: 2 }]);
  });

  it('does not end a wait on a progress report', async () => {
    const waiters = new ReplyWaiters();
    const waiting = waiters.wait('t2', 50);
    waiters.deliver({ task_id: 't2', status: 'progress', progress: { done: 1 } });
    await expect(waiting).resolves.toBeNull();
  });
});
