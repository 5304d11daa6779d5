import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBus, EventOutbox, type Bus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/src/testing/databases.js';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { outbox } from '../db/schema.js';
import { MAX_ATTEMPTS, mailDelivery, queueEmail, type MailDelivery } from './mail-delivery.js';

const log = createLogger({ service: 'mail-delivery-test', silent: true });

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(testDatabaseKinds())("identity's e-mails through the outbox on $name", (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let smtp: TestSmtpServer;
  let mail: MailDelivery;
  let events: EventOutbox;
  const rows = () => db.database.db.select().from(outbox);
  /** An outbox that queues e-mails without sending them (no SMTP): they wait for a relay. */
  const queueOnly = () => new EventOutbox({ db: db.database.db, table: outbox, bus, log });
  const queue = (target: EventOutbox, to: string, template: string, data: Record<string, unknown>) => target.transaction(async (_tx, out) => queueEmail(out, to, template, data));

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    bus = await createBus({ logger: log });
    smtp = await startSmtpServer();
    mail = mailDelivery({ smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' });
    events = new EventOutbox({ db: db.database.db, table: outbox, bus, log, deliveries: { email: mail } });
  });

  afterAll(async () => {
    await events?.stop();
    mail?.close();
    await bus?.close();
    await smtp?.close();
    await db?.dispose();
  });

  beforeEach(async () => {
    await db.database.db.delete(outbox);
    smtp.received.length = 0;
    smtp.refuse();
  });

  it('sends an e-mail once its change commits, with its template, and marks it sent', async () => {
    await queue(events, 'ada@example.test', 'password-changed', { name: 'Ada', changed_at: '2026-11-22T10:00:00.000Z' });
    await until(async () => (await rows())[0]?.sentAt != null, 'the e-mail to be marked sent');
    await events.sendDue();
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message!.subject).toBe('Your svc password was changed');
    expect(message!.from?.value[0]).toMatchObject({ name: 'svc', address: 'no-reply@svc.test' });
    expect(message!.to).toMatchObject({ text: 'ada@example.test' });
    expect(message!.text).toContain('Hello Ada,');
    expect(message!.text).toContain('2026-11-22T10:00:00.000Z');
    expect(await rows()).toEqual([expect.objectContaining({ kind: 'email', name: 'password-changed', sentAt: expect.any(Date), lastError: null })]);
  });

  it('writes nothing when the change does not commit', async () => {
    await expect(
      events.transaction(async (_tx, out) => {
        queueEmail(out, 'ada@example.test', 'password-changed', { name: 'Ada', changed_at: 'now' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await rows()).toEqual([]);
  });

  it('writes the invite code into an invitation', async () => {
    const payload = { organization: 'Acme', scope: '@acme', invite_id: '4b7f2c1e-0000-4000-8000-000000000001', role: 'member', expires_at: '2026-11-29T10:00:00.000Z' };
    await queue(events, 'bob@example.test', 'organization-invite', payload);
    await until(() => smtp.received.length === 1, 'the invitation');
    expect(smtp.received[0]!.subject).toBe('You are invited to Acme on svc');
    expect(smtp.received[0]!.text).toContain(payload.invite_id);
  });

  it('leaves e-mails in the outbox when no SMTP server is configured', async () => {
    const withoutMail = queueOnly();
    await queue(withoutMail, 'ada@example.test', 'password-changed', { name: 'Ada', changed_at: 'now' });
    await withoutMail.sendDue();
    expect(await rows()).toEqual([expect.objectContaining({ sentAt: null, attempts: 0 })]);
    expect(smtp.received).toHaveLength(0);
  });

  it('tries a refused e-mail again after a backoff, and sends it once the relay takes it', async () => {
    smtp.refuse('Mailbox busy, try later');
    await queue(events, 'ada@example.test', 'password-changed', { name: 'Ada', changed_at: 'now' });
    await until(async () => (await rows())[0]?.lastError != null, 'the refusal to be recorded');
    const [failed] = await rows();
    expect(failed).toMatchObject({ sentAt: null, attempts: 1 });
    expect(failed!.lastError).toContain('Mailbox busy');
    expect(failed!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);

    await events.sendDue();
    expect(smtp.received).toHaveLength(0);

    smtp.refuse();
    await db.database.db.update(outbox).set({ nextAttemptAt: sql`now()` });
    await events.sendDue();
    await events.stop();
    expect(smtp.received).toHaveLength(1);
    expect(await rows()).toEqual([expect.objectContaining({ attempts: 2, lastError: null, sentAt: expect.any(Date) })]);
  });

  it(`leaves a message unsent with its last error after ${MAX_ATTEMPTS} tries`, async () => {
    await queue(queueOnly(), 'ada@example.test', 'password-changed', { name: 'Ada', changed_at: 'now' });
    await db.database.db.update(outbox).set({ attempts: MAX_ATTEMPTS - 1 });
    smtp.refuse('Still busy');
    await events.sendDue();
    smtp.refuse();
    await events.sendDue();
    expect(smtp.received).toHaveLength(0);
    expect(await rows()).toEqual([expect.objectContaining({ attempts: MAX_ATTEMPTS, sentAt: null, nextAttemptAt: null, lastError: expect.stringContaining('Still busy') })]);
  });

  it('records a template nobody wrote as a failure instead of sending it', async () => {
    await queue(queueOnly(), 'ada@example.test', 'no-such-template', {});
    await events.sendDue();
    expect(smtp.received).toHaveLength(0);
    const [row] = await rows();
    expect(row!.lastError).toContain('no-such-template');
  });

  it('sends each message once when several relays read the outbox at the same time', async () => {
    const waiting = queueOnly();
    for (let i = 0; i < 12; i++) await queue(waiting, `user${i}@example.test`, 'password-changed', { name: `U${i}`, changed_at: 'now' });
    const relays = [1, 2, 3].map(() => new EventOutbox({ db: db.database.db, table: outbox, bus, log, deliveries: { email: mail } }));
    await Promise.all(relays.map((r) => r.sendDue()));
    await Promise.all(relays.map((r) => r.stop()));
    expect(smtp.received.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)!.text).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `user${i}@example.test`).sort());
    expect((await db.database.db.select().from(outbox).where(eq(outbox.attempts, 1))).length).toBe(12);
  });
});
