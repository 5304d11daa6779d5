import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXECUTION_REPLIES, FETCH_PACKAGE_RPC, FLEET_PING_RPC, type EventPayload, type RunOutcome } from '@svc/contracts';
import { AppError, createLogger } from '@svc/core';
import { ephemeralQueueName } from './names.js';
import { testBusKinds, waitFor, type TestBus } from './testing/index.js';

const installed = (): EventPayload<'pack.installed'> => ({
  pack_id: randomUUID(),
  tenant_id: randomUUID(),
  namespace: 'acme',
  name: 'tools',
  version: '1.0.0',
  commands: ['echo'],
  version_id: randomUUID(),
  user_id: randomUUID(),
  previous_version: null,
  visibility: 'public',
});

describe.each(testBusKinds())('the typed bus on the $name bus', (kind) => {
  const logger = createLogger({ service: 'typed-bus-test', silent: true });
  let opened: TestBus;
  const failures = vi.spyOn(logger, 'error');

  beforeAll(async () => {
    opened = await kind.open({ logger });
  });
  afterAll(() => opened?.dispose());

  /** The error the adapter logged about a message that failed on `queue`. */
  const failureOn = (queue: string): { line: string; error: string } | undefined => {
    const call = (failures.mock.calls as unknown as [string, { queue?: string; error: string }][]).find(([, meta]) => meta?.queue === queue);
    return call && { line: call[0], error: call[1].error };
  };

  it('hands a subscriber the payload its event name promises', async () => {
    const { bus } = opened;
    const received: EventPayload<'pack.installed'>[] = [];
    await bus.subscribe(ephemeralQueueName('test.typed-events'), ['pack.installed'], async (message) => {
      received.push(message.payload);
    }, { ephemeral: true });
    const event = installed();
    await bus.publish('pack.installed', event);
    await waitFor(() => received.length === 1, 'the event');
    expect(received[0]).toEqual(event);
  });

  it('dead-letters an event that does not match its schema, with a log line naming the field, and never hands it on', async () => {
    const { bus, raw } = opened;
    let handled = 0;
    // A subscriber's queue of BUS_CONTRACTS (durable: it has a dead-letter queue), under a prefix of this test's own (RabbitMQ) or on a bus of its own (in-process).
    await bus.subscribe('identity.packs', ['pack.uninstalled'], async () => {
      handled++;
    });
    const deadLetters: unknown[] = [];
    await raw.consume('identity.packs.dlq', async (message) => {
      deadLetters.push(message.payload);
    });
    // What an older or foreign publisher might send: the type system would refuse it here.
    await raw.publish('pack.uninstalled', { pack_id: 'p', tenant_id: 't', namespace: 'acme', name: 'tools', user_id: 'u', version: null, commands: 'echo' });
    await waitFor(() => deadLetters.length === 1, 'the dead letter');
    expect(handled).toBe(0);
    const { line, error } = failureOn('identity.packs')!;
    expect(line).toMatch(/dead-lettered/);
    expect(error).toContain('Invalid pack.uninstalled: commands:');
  });

  it('dead-letters a job that does not match its queue, naming the field', async () => {
    const { bus, raw } = opened;
    const jobs: unknown[] = [];
    // A queue of BUS_CONTRACTS under a prefix of this test's own (RabbitMQ) or on a bus of its own (in-process).
    await bus.consume('exec.long', async (message) => {
      jobs.push(message.payload);
    });
    await raw.send('exec.long', { task_id: 42 });
    await bus.send('exec.long', { task_id: randomUUID() });
    await waitFor(() => jobs.length === 1 && failureOn('exec.long') !== undefined, 'the good job and the failure');
    expect(jobs).toHaveLength(1);
    expect(failureOn('exec.long')!.error).toContain('Invalid exec.long: task_id:');
  });

  it('types and checks what arrives on an ephemeral queue by its base name', async () => {
    const { bus, raw } = opened;
    const replies = ephemeralQueueName(EXECUTION_REPLIES);
    const outcomes: RunOutcome[] = [];
    await bus.consume(replies, async (message) => {
      if (message.payload.status !== 'progress') outcomes.push(message.payload);
    }, { ephemeral: true });
    await raw.send(replies, { task_id: 't1', status: 'exploded', duration_ms: 1 });
    await bus.send(replies, { task_id: 't2', status: 'success', result: { ok: true }, duration_ms: 3 });
    await waitFor(() => outcomes.length === 1 && failureOn(replies) !== undefined, 'the good reply and the failure');
    expect(outcomes).toEqual([{ task_id: 't2', status: 'success', result: { ok: true }, duration_ms: 3 }]);
    expect(failureOn(replies)!.error).toContain('Invalid execution.replies: status:');
  });

  it('answers a question that does not match its schema with VALIDATION_FAILED naming the field', async () => {
    const { bus } = opened;
    let asked = 0;
    await bus.respond(FETCH_PACKAGE_RPC, async ({ version_id }) => {
      asked++;
      return { version_id, sha256: 'x', size_bytes: 0, tarball_base64: '' };
    });
    const failure = await bus.request(FETCH_PACKAGE_RPC, { version_id: 'not-a-uuid' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'version_id' } });
    expect(asked).toBe(0);
    await expect(bus.request(FETCH_PACKAGE_RPC, { version_id: randomUUID() })).resolves.toMatchObject({ sha256: 'x' });
  });

  it('rejects an answer that does not match its schema with INTEGRATION_ERROR naming the field', async () => {
    const { bus, raw } = opened;
    await raw.respond(FLEET_PING_RPC, async () => ({ service: 7 }));
    await expect(bus.request(FLEET_PING_RPC, {})).rejects.toMatchObject({ code: 'INTEGRATION_ERROR', details: { rpc: FLEET_PING_RPC, field: 'service' } });
  });

  it('refuses a name that is not in BUS_CONTRACTS, or of another kind', async () => {
    const { bus } = opened;
    await expect(bus.publish('pack.exploded' as 'pack.installed', installed())).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(bus.send('pack.installed' as 'exec.fast', { task_id: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(bus.consume('test.untyped' as 'exec.fast', async () => {})).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it("refuses a subscriber's durable queue that BUS_CONTRACTS does not name, or names as per-process", async () => {
    const { bus } = opened;
    await expect(bus.subscribe('test.unnamed' as 'admin.usage', ['pack.installed'], async () => {})).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: "test.unnamed is not a subscriber's queue of BUS_CONTRACTS" });
    await expect(bus.subscribe('exec.fast' as 'admin.usage', ['pack.installed'], async () => {})).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(bus.subscribe('execution.broadcasts' as 'admin.usage', ['task.revoked'], async () => {})).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

/** Compiled, never run: a publisher and a consumer that disagree with the map do not type-check. */
export function typeChecks(bus: TestBus['bus']): void {
  // @ts-expect-error: a field of the wrong type
  void bus.publish('pack.installed', { ...installed(), version: 1 });
  // @ts-expect-error: a field missing
  void bus.publish('task.revoked', { task_id: 't', tenant_id: 't' });
  // @ts-expect-error: an event nobody declared
  void bus.publish('pack.exploded', {});
  void bus.subscribe('admin.usage', ['pack.installed', 'task.*'], async (message) => {
    if (message.name === 'pack.installed') void message.payload.version_id;
    // @ts-expect-error: task.revoked carries no version_id
    else void message.payload.version_id;
  });
  // @ts-expect-error: a durable subscriber's queue the map does not name
  void bus.subscribe('test.q', ['pack.installed'], async () => {});
  // @ts-expect-error: a reply queue takes run outcomes, not jobs
  void bus.send(ephemeralQueueName(EXECUTION_REPLIES), { task_id: 't' });
  void bus.request(FLEET_PING_RPC, {}).then((pong) => {
    // @ts-expect-error: the answer is typed by the RPC
    void pong.version;
  });
}
