import { describe, expect, it } from 'vitest';
import { ValidationError } from '@svc/core';
import { checkQueueName, ephemeralQueueName, hasDeadLetterQueue, isEphemeralQueue } from './names.js';

describe('ephemeral queue names', () => {
  it('makes a unique name carrying the ~ mark', () => {
    const first = ephemeralQueueName('exec.replies');

    expect(first).toMatch(/^~exec\.replies\.[0-9a-f-]{36}$/);
    expect(ephemeralQueueName('exec.replies')).not.toBe(first);
    expect(isEphemeralQueue(first)).toBe(true);
    expect(isEphemeralQueue('exec.replies')).toBe(false);
  });

  it('refuses an empty base', () => {
    expect(() => ephemeralQueueName('')).toThrow(ValidationError);
  });

  it('checks that the mark and the consumer option agree', () => {
    expect(() => checkQueueName('~replies', true)).not.toThrow();
    expect(() => checkQueueName('replies', false)).not.toThrow();
    expect(() => checkQueueName('replies', true)).toThrow(ValidationError);
    expect(() => checkQueueName('~replies', false)).toThrow(ValidationError);
    expect(() => checkQueueName('~replies')).not.toThrow();
  });

  it('gives neither ephemeral nor dead-letter queues a dead-letter queue', () => {
    expect(hasDeadLetterQueue('exec.fast')).toBe(true);
    expect(hasDeadLetterQueue('exec.fast.dlq')).toBe(false);
    expect(hasDeadLetterQueue('~exec.replies.1')).toBe(false);
  });
});
