import { describe, expect, it } from 'vitest';
import { EventBatcher, batchMessage, eventsOfBatch } from './event-batches.js';
import { prepareMessage, type OutgoingMessage } from './message.js';

const event = (name: string, n: number) => prepareMessage(name, { n }, { correlationId: `c-${n}`, headers: { 'x-tenant': 't1' } });

/** A batcher whose sends are recorded, and settled by the test. */
function recordingBatcher(limits?: { maxEvents: number; maxBytes: number }) {
  const sends: { messages: OutgoingMessage[]; settle(err?: Error): void }[] = [];
  const batcher = new EventBatcher(
    (messages) =>
      new Promise<void>((resolve, reject) => {
        sends.push({ messages, settle: (err) => (err ? reject(err) : resolve()) });
      }),
    limits,
  );
  return { batcher, sends };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('event batches', () => {
  it('sends the events of one turn together, one group per name, each in the order published', async () => {
    const { batcher, sends } = recordingBatcher();
    void batcher.add(event('run.ended', 1));
    void batcher.add(event('run.started', 2));
    void batcher.add(event('run.ended', 3));
    expect(sends).toHaveLength(0);
    await turn();
    expect(sends.map((s) => s.messages.map((m) => `${m.name}:${m.correlationId}`))).toEqual([['run.ended:c-1', 'run.ended:c-3'], ['run.started:c-2']]);
    void batcher.add(event('run.ended', 4));
    await turn();
    expect(sends).toHaveLength(3);
  });

  it('resolves each publish when its group is confirmed, and rejects those of a group that failed alone', async () => {
    const { batcher, sends } = recordingBatcher();
    const ended = [batcher.add(event('run.ended', 1)), batcher.add(event('run.ended', 2))];
    const started = batcher.add(event('run.started', 3));
    await turn();
    sends[0]!.settle(new Error('nacked'));
    sends[1]!.settle();
    await expect(started).resolves.toBeUndefined();
    for (const publish of ended) await expect(publish).rejects.toThrow('nacked');
  });

  it('starts a new group when one is full, by count or by bytes', async () => {
    const byCount = recordingBatcher({ maxEvents: 2, maxBytes: 1 << 20 });
    for (let n = 1; n <= 5; n++) void byCount.batcher.add(event('run.ended', n));
    await turn();
    expect(byCount.sends.map((s) => s.messages.length)).toEqual([2, 2, 1]);

    const byBytes = recordingBatcher({ maxEvents: 100, maxBytes: 20 });
    for (let n = 1; n <= 3; n++) void byBytes.batcher.add(event('run.ended', n)); // 7 bytes each: {"n":1}
    await turn();
    expect(byBytes.sends.map((s) => s.messages.length)).toEqual([2, 1]);
  });

  it('drains: sends what is gathered at once and waits for the sends under way', async () => {
    const { batcher, sends } = recordingBatcher();
    const publish = batcher.add(event('run.ended', 1));
    let drained = false;
    const draining = batcher.drain().then(() => (drained = true));
    expect(sends).toHaveLength(1);
    await Promise.resolve();
    expect(drained).toBe(false);
    sends[0]!.settle();
    await draining;
    await expect(publish).resolves.toBeUndefined();
  });

  it('carries every event whole in one body, and gives each back as its own message', () => {
    const messages = [event('run.ended', 1), event('run.ended', 2)];
    const batch = batchMessage(messages);
    expect(batch.name).toBe('run.ended');
    const back = eventsOfBatch(JSON.parse(batch.body), 'run.ended', true);
    expect(back).toEqual(
      messages.map((m) => ({ name: 'run.ended', payload: JSON.parse(m.body), correlationId: m.correlationId, messageId: m.messageId, redelivered: true, headers: { 'x-tenant': 't1' } })),
    );
  });

  it('refuses a body that is not a batch', () => {
    for (const body of [{ n: 1 }, [], [{ id: 'a' }], [{ id: 'a', correlation_id: 'c', headers: {}, payload: 1 }, 'x'], null]) {
      expect(eventsOfBatch(body, 'run.ended', false)).toBeUndefined();
    }
  });

  it('keeps headers the bus reserves out of the events it gives back', () => {
    const body = [{ id: 'a', correlation_id: 'c', headers: { 'x-bus-name': 'spoof', 'x-death': 'x', traceparent: '00-1' }, payload: null }];
    expect(eventsOfBatch(body, 'run.ended', false)?.[0]?.headers).toEqual({ traceparent: '00-1' });
  });
});
