import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Poller, type PollerOptions } from './poller.js';

/** A poller on fake timers whose looks answer from `answers` (the last one repeated), recording when each began (ms since start). */
function recorded(answers: Array<number | undefined | Error>, options: Partial<PollerOptions> = {}) {
  const began: number[] = [];
  const errors: string[] = [];
  const t0 = Date.now();
  const poller = new Poller({
    busyMs: 100,
    idleMs: 800,
    onError: (err) => errors.push(err.message),
    look: async () => {
      began.push(Date.now() - t0);
      const answer = answers[Math.min(began.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    ...options,
  });
  return { poller, began, errors };
}

describe('Poller', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('looks every busyMs while there is work, and backs off by doubling to idleMs while there is none', async () => {
    const { poller, began } = recorded([100, 100, undefined]);
    poller.start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(began).toEqual([100, 200, 300, 400, 600, 1000, 1800, 2600]);
    await poller.stop();
  });

  it('looks again when a look says work is due, however far it had backed off, but never later than idleMs', async () => {
    const { poller, began } = recorded([undefined, undefined, undefined, 30, 5000, undefined]);
    poller.start();
    await vi.advanceTimersByTimeAsync(2000);
    // 100, then +100, +200, +400 (no work), then the look's own 30, then 5000 capped at 800, then backing off anew.
    expect(began.slice(0, 7)).toEqual([100, 200, 400, 800, 830, 1630, 1730]);
    await poller.stop();
  });

  it('a wake brings the next look forward and restarts the pauses from busyMs; a later wake postpones nothing', async () => {
    const { poller, began } = recorded([undefined]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1500);
    expect(began).toEqual([100, 200, 400, 800]);
    poller.wake(50);
    poller.wake(10_000);
    await vi.advanceTimersByTimeAsync(400);
    expect(began).toEqual([100, 200, 400, 800, 1550, 1650, 1850]);
    await poller.stop();
  });

  it('keeps a wake that comes while a look is under way, which the look itself could not know of', async () => {
    let release!: () => void;
    const began: number[] = [];
    const t0 = Date.now();
    const poller = new Poller({
      busyMs: 100,
      idleMs: 800,
      onError: () => undefined,
      look: async () => {
        began.push(Date.now() - t0);
        if (began.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      },
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(100);
    poller.wake(20);
    await vi.advanceTimersByTimeAsync(50);
    release();
    await vi.advanceTimersByTimeAsync(100);
    // Without the wake the look ending at 150 would back off to 350.
    expect(began).toEqual([100, 150, 250]);
    await poller.stop();
  });

  it('never pauses less than busyMs while idle, whatever idleMs says', async () => {
    const { poller, began } = recorded([undefined], { idleMs: 30 });
    poller.start();
    await vi.advanceTimersByTimeAsync(450);
    expect(began).toEqual([100, 200, 300, 400]);
    await poller.stop();
  });

  it('reports a failed look and looks again after busyMs', async () => {
    const { poller, began, errors } = recorded([new Error('database away'), undefined]);
    poller.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(errors).toEqual(['database away']);
    expect(began).toEqual([100, 200]);
    await poller.stop();
  });

  it('joins a look under way instead of starting a second, and stops after it, looking no more', async () => {
    let release!: () => void;
    let looks = 0;
    const poller = new Poller({
      busyMs: 100,
      idleMs: 800,
      onError: () => undefined,
      look: async () => {
        looks += 1;
        await new Promise<void>((resolve) => (release = resolve));
        return 0;
      },
    });
    poller.start(0);
    await vi.advanceTimersByTimeAsync(0);
    const joined = poller.look();
    expect(looks).toBe(1);
    const stopped = poller.stop();
    release();
    await Promise.all([joined, stopped]);
    poller.wake();
    await vi.advanceTimersByTimeAsync(5000);
    expect(looks).toBe(1);
  });
});
