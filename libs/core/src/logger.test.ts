import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

/** A logger writing to a stream, and the entries it wrote so far. */
function logged(level: string, silent = false) {
  const stream = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { log: createLogger({ service: 'test', level, silent, stream }), lines };
}

/** Meta whose field counts how often winston reads it: a call that builds the entry reads it. */
function counted() {
  const reads = { n: 0 };
  return {
    reads,
    meta: {
      get task_id() {
        reads.n += 1;
        return 't1';
      },
    },
  };
}

describe('createLogger', () => {
  it('writes a call of a level it logs, with the service and the meta', async () => {
    const { log, lines } = logged('info');
    log.info('run ends', { task_id: 't1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ level: 'info', message: 'run ends', service: 'test', task_id: 't1' })]);
  });

  it('returns from a call of a level it does not log before building the entry', async () => {
    const { log, lines } = logged('info');
    const { meta, reads } = counted();
    expect(log.debug('run begins', meta)).toBe(log);
    log.child({ queue: 'fast' }).debug('run begins', meta);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads.n).toBe(0);
    expect(lines).toEqual([]);
  });

  it('builds nothing on a silent logger', () => {
    const { log, lines } = logged('debug', true);
    const { meta, reads } = counted();
    log.error('failed', meta);
    expect(reads.n).toBe(0);
    expect(lines).toEqual([]);
  });

  it('follows a level changed later, on the logger and its children', async () => {
    const { log, lines } = logged('info');
    log.level = 'debug';
    log.debug('run begins', { task_id: 't1' });
    log.child({ queue: 'fast' }).debug('child speaks');
    log.level = 'warn';
    log.info('not written');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.message)).toEqual(['run begins', 'child speaks']);
    expect(lines[1]).toMatchObject({ queue: 'fast' });
  });
});
