import { describe, expect, it } from 'vitest';
import { RUN_LOG_BYTES, RUN_LOG_LINE_CHARS, RunLog } from './run-log.js';

describe('RunLog', () => {
  it('keeps the lines of a run with their level and time', () => {
    const log = new RunLog();
    log.add('info', 'greeting Ada');
    log.add('warn', 'careful');
    expect(log.lines()).toEqual([expect.objectContaining({ level: 'info', message: 'greeting Ada' }), expect.objectContaining({ level: 'warn', message: 'careful' })]);
    expect(Date.parse(log.lines()[0]!.at)).toBeLessThanOrEqual(Date.now());
  });

  it('keeps its budget, cuts long lines, and says how many lines it dropped', () => {
    const log = new RunLog();
    log.add('info', 'x'.repeat(RUN_LOG_LINE_CHARS * 3));
    for (let i = 0; i < 1000; i += 1) log.add('info', `line ${i} ${'y'.repeat(100)}`);
    const lines = log.lines();
    expect(lines[0]!.message).toHaveLength(RUN_LOG_LINE_CHARS + 1);
    const kept = lines.slice(0, -1).reduce((sum, line) => sum + Buffer.byteLength(line.message) + 32, 0);
    expect(kept).toBeLessThanOrEqual(RUN_LOG_BYTES);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', message: expect.stringMatching(/^\d+ more line\(s\) dropped: a run keeps 16 KiB of log$/) });
    const dropped = Number(/^(\d+)/.exec(lines.at(-1)!.message)![1]);
    expect(lines.length - 2 + dropped).toBe(1000);
  });
});
