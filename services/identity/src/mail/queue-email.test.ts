import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, EventOutbox, type Bus, type EventMessage, ephemeralQueueName } from '@svc/bus';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { inbox, outbox } from '../db/schema.js';
import { queueEmail } from './queue-email.js';

const log = createLogger({ service: 'queue-email-test', silent: true });

describe("identity's e-mails", () => {
  let db: TestDatabase;
  let bus: Bus;
  let events: EventOutbox;
  const requested: EventMessage<'email.requested'>[] = [];

  beforeAll(async () => {
    db = await testDatabaseKinds()[0]!.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    bus = await createBus({ logger: log });
    await bus.subscribe(ephemeralQueueName('identity-test.emails'), ['email.requested'], async (message) => {
      requested.push(message);
    }, { ephemeral: true });
    events = new EventOutbox({ db: db.database.db, table: outbox, inbox, bus, log });
  });

  afterAll(async () => {
    await events?.stop();
    await bus?.close();
    await db?.dispose();
  });

  it('are asked of the notify service once their change commits, rendered in text and HTML', async () => {
    await events.transaction(async (_tx, out) => queueEmail(out, 'ada@example.test', 'password-changed', { name: 'Ada', changed_at: '2026-11-22T10:00:00.000Z' }, 'u1'));
    for (let waited = 0; requested.length === 0 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requested).toHaveLength(1);
    const { payload } = requested[0]!;
    expect(payload).toMatchObject({ to: 'ada@example.test', subject: 'Your svc password was changed', kind: 'password-changed', user_id: 'u1' });
    expect(payload.text).toContain('Hello Ada,');
    expect(payload.text).toContain('2026-11-22T10:00:00.000Z');
    expect(payload.html).toContain('<p>Hello Ada,</p>');
  });

  it('are not asked for when the change rolls back', async () => {
    requested.length = 0;
    await expect(
      events.transaction(async (_tx, out) => {
        queueEmail(out, 'bob@example.test', 'organization-invite', { organization: 'Acme', scope: '@acme', invite_id: 'i1', role: 'member', expires_at: 'soon' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await events.outbox.sendDue();
    expect(requested).toHaveLength(0);
  });
});
