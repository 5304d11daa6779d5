import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { FLEET_PING_RPC } from '@svc/contracts';
import { traced } from '@svc/tracing';
import { parentIdOf, recordedSpans } from '@svc/tracing/testing';
import { ephemeralQueueName } from './names.js';
import { testBusKinds, waitFor, type TestBus } from './testing/index.js';

const spans = await recordedSpans();

/** The one finished span of that name. */
function only(name: string) {
  const found = spans.named(name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
}

describe.each(testBusKinds())('trace propagation on the $name bus', (kind) => {
  let opened: TestBus;
  beforeAll(async () => {
    opened = await kind.open();
  });
  afterAll(() => opened?.dispose());
  beforeEach(() => spans.reset());

  it('carries a job\'s trace from the sender\'s span through publish and consume to the handler\'s work', async () => {
    const { bus } = opened;
    const queue = ephemeralQueueName('execution.replies');
    let handled = false;
    await bus.consume(queue, () => traced('test.handler', {}, async () => void (handled = true)), { ephemeral: true });
    await traced('test.sender', {}, () => bus.send(queue, { task_id: randomUUID(), status: 'progress', progress: { done: 1 } }));
    await waitFor(() => handled && spans.named('bus.consume execution.replies').length === 1, 'the handled job');

    const sender = only('test.sender');
    const publish = only('bus.publish execution.replies');
    const consume = only('bus.consume execution.replies');
    const handler = only('test.handler');
    expect(new Set([sender, publish, consume, handler].map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(parentIdOf(publish)).toBe(sender.spanContext().spanId);
    expect(parentIdOf(consume)).toBe(publish.spanContext().spanId);
    expect(parentIdOf(handler)).toBe(consume.spanContext().spanId);
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(consume.attributes).toMatchObject({ 'messaging.destination.name': 'execution.replies', 'messaging.system': kind.name === 'RabbitMQ' ? 'rabbitmq' : 'svc.in-process' });
  });

  it('carries an event\'s trace to its subscriber', async () => {
    const { bus } = opened;
    let handled = false;
    await bus.subscribe(ephemeralQueueName('execution.broadcasts'), ['task.revoked'], async () => void (handled = true), { ephemeral: true });
    await traced('test.sender', {}, () => bus.publish('task.revoked', { task_id: randomUUID(), tenant_id: randomUUID(), user_id: randomUUID() }));
    await waitFor(() => handled && spans.named('bus.consume execution.broadcasts').length === 1, 'the event');

    const publish = only('bus.publish task.revoked');
    expect(parentIdOf(publish)).toBe(only('test.sender').spanContext().spanId);
    const consume = only('bus.consume execution.broadcasts');
    expect(consume.spanContext().traceId).toBe(publish.spanContext().traceId);
    expect(parentIdOf(consume)).toBe(publish.spanContext().spanId);
  });

  it('carries a question\'s trace to its responder, and the answer comes back in the asker\'s span', async () => {
    const { bus } = opened;
    const responder = await bus.respond(FLEET_PING_RPC, () => traced('test.responder', {}, async () => ({ service: 'test' })));
    await expect(traced('test.asker', {}, () => bus.request(FLEET_PING_RPC, {}))).resolves.toEqual({ service: 'test' });
    await responder.cancel();

    const request = only(`bus.request ${FLEET_PING_RPC}`);
    const respond = only(`bus.respond ${FLEET_PING_RPC}`);
    expect(request.kind).toBe(SpanKind.CLIENT);
    expect(respond.kind).toBe(SpanKind.SERVER);
    expect(parentIdOf(request)).toBe(only('test.asker').spanContext().spanId);
    expect(parentIdOf(respond)).toBe(request.spanContext().spanId);
    expect(parentIdOf(only('test.responder'))).toBe(respond.spanContext().spanId);
  });

  it('starts a trace of its own for a message that carries none, and marks a failed handler', async () => {
    const { bus, raw } = opened;
    const queue = ephemeralQueueName('execution.replies');
    let tried = false;
    await bus.consume(queue, async () => {
      tried = true;
      throw new Error('handler failed');
    }, { ephemeral: true });
    await raw.send(queue, { task_id: randomUUID(), status: 'progress', progress: { done: 1 } });
    await waitFor(() => tried && spans.named('bus.consume execution.replies').length === 1, 'the failed job');

    const consume = only('bus.consume execution.replies');
    expect(parentIdOf(consume)).toBeUndefined();
    expect(consume.status).toEqual({ code: 2, message: 'Error' });
  });
});
