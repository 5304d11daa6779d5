import { describe, expect, it } from 'vitest';
import { parseCpuTimes, stolenShare } from './machine.js';

// user nice system idle iowait irq softirq steal guest guest_nice, in ticks of 10 ms
const STAT = 'cpu  1000 0 200 600 50 0 50 100 0 0\ncpu0 500 0 100 300 25 0 25 50 0 0\nintr 1 2 3\n';

describe('CPU time from /proc/stat', () => {
  it("reads the machine's total and stolen time, in ms", () => {
    expect(parseCpuTimes(STAT)).toEqual({ totalMs: 20_000, stolenMs: 1_000 });
  });

  it('knows nothing without a cpu line', () => {
    expect(parseCpuTimes(undefined)).toBeUndefined();
    expect(parseCpuTimes('intr 1 2 3\n')).toBeUndefined();
  });

  it('gives the share stolen between two readings', () => {
    expect(stolenShare({ totalMs: 20_000, stolenMs: 1_000 }, { totalMs: 30_000, stolenMs: 3_500 })).toBe(0.25);
    expect(stolenShare(undefined, { totalMs: 30_000, stolenMs: 3_500 })).toBeUndefined();
    expect(stolenShare({ totalMs: 20_000, stolenMs: 1_000 }, { totalMs: 20_000, stolenMs: 1_000 })).toBeUndefined();
  });
});
