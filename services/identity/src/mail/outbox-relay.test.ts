import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/src/testing/databases.js';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { outbox } from '../db/schema.js';
import { OutboxRepository } from '../repositories/outbox.repository.js';
import { MAX_ATTEMPTS, OutboxRelay } from './outbox-relay.js';

const log = createLogger({ service: 'outbox-relay-test', silent: true });

describe.each(testDatabaseKinds())('the outbox relay on $name', (kind) => {
  let db: TestDatabase;
  let smtp: TestSmtpServer;
  let relay: OutboxRelay;
  const rows = () => db.database.db.select().from(outbox);

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    smtp = await startSmtpServer();
    relay = new OutboxRelay(db.database.db, { smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' }, log);
  });

  afterAll(async () => {
    await relay?.stop();
    await smtp?.close();
    await db?.dispose();
  });

  beforeEach(async () => {
    await db.database.db.delete(outbox);
    smtp.received.length = 0;
    smtp.refuse();
  });

  it('sends a queued e-mail once, with its template, and marks it sent', async () => {
    await new OutboxRepository(db.database.db).queueEmail('ada@example.test', 'password-changed', { name: 'Ada', changed_at: '2026-11-22T10:00:00.000Z' });
    await relay.sendDue();
    await relay.sendDue();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.subject).toBe('Your svc password was changed');
    expect(mail!.from?.value[0]).toMatchObject({ name: 'svc', address: 'no-reply@svc.test' });
    expect(mail!.to).toMatchObject({ text: 'ada@example.test' });
    expect(mail!.text).toContain('Hello Ada,');
    expect(mail!.text).toContain('2026-11-22T10:00:00.000Z');
    expect(await rows()).toEqual([expect.objectContaining({ sentAt: expect.any(Date), attempts: 1, lastError: null })]);
  });

  it('writes the invite code into an invitation', async () => {
    const payload = { organization: 'Acme', scope: '@acme', invite_id: '4b7f2c1e-0000-4000-8000-000000000001', role: 'member', expires_at: '2026-11-29T10:00:00.000Z' };
    await new OutboxRepository(db.database.db).queueEmail('bob@example.test', 'organization-invite', payload);
    await relay.sendDue();
    expect(smtp.received[0]!.subject).toBe('You are invited to Acme on svc');
    expect(smtp.received[0]!.text).toContain(payload.invite_id);
  });

  it('tries a refused e-mail again after a backoff, and sends it once the relay takes it', async () => {
    await new OutboxRepository(db.database.db).queueEmail('ada@example.test', 'password-changed', { name: 'Ada', changed_at: 'now' });
    smtp.refuse('Mailbox busy, try later');
    await relay.sendDue();
    const [failed] = await rows();
    expect(failed).toMatchObject({ sentAt: null, attempts: 1 });
    expect(failed!.lastError).toContain('Mailbox busy');
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);

    await relay.sendDue();
    expect(smtp.received).toHaveLength(0);

    smtp.refuse();
    await db.database.db.update(outbox).set({ nextAttemptAt: sql`now()` });
    await relay.sendDue();
    expect(smtp.received).toHaveLength(1);
    expect(await rows()).toEqual([expect.objectContaining({ attempts: 2, lastError: null, sentAt: expect.any(Date) })]);
  });

  it(`leaves a message unsent with its last error after ${MAX_ATTEMPTS} tries`, async () => {
    await new OutboxRepository(db.database.db).queueEmail('ada@example.test', 'password-changed', { name: 'Ada', changed_at: 'now' });
    await db.database.db.update(outbox).set({ attempts: MAX_ATTEMPTS - 1 });
    smtp.refuse('Still busy');
    await relay.sendDue();
    smtp.refuse();
    await db.database.db.update(outbox).set({ nextAttemptAt: sql`now()` });
    await relay.sendDue();
    expect(smtp.received).toHaveLength(0);
    expect(await rows()).toEqual([expect.objectContaining({ attempts: MAX_ATTEMPTS, sentAt: null, lastError: expect.stringContaining('Still busy') })]);
  });

  it('records a template nobody wrote as a failure instead of sending it', async () => {
    await new OutboxRepository(db.database.db).queueEmail('ada@example.test', 'no-such-template', {});
    await relay.sendDue();
    expect(smtp.received).toHaveLength(0);
    const [row] = await rows();
    expect(row!.lastError).toContain('no-such-template');
  });

  it('sends each message once when several relays read the outbox at the same time', async () => {
    const repository = new OutboxRepository(db.database.db);
    for (let i = 0; i < 12; i++) await repository.queueEmail(`user${i}@example.test`, 'password-changed', { name: `U${i}`, changed_at: 'now' });
    const relays = [1, 2, 3].map(() => new OutboxRelay(db.database.db, { smtpUrl: smtp.url, from: 'svc <no-reply@svc.test>' }, log));
    await Promise.all(relays.map((r) => r.sendDue()));
    await Promise.all(relays.map((r) => r.stop()));
    expect(smtp.received.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)!.text).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `user${i}@example.test`).sort());
    expect((await db.database.db.select().from(outbox).where(eq(outbox.attempts, 1))).length).toBe(12);
  });
});
