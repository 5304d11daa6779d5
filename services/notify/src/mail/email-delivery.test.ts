import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import type { NotifyServiceHandle } from '../app.js';
import { outbox } from '../db/schema.js';
import { startNotify, until } from '../testing/notify-fixture.js';

const log = createLogger({ service: 'email-delivery-test', silent: true });
const FROM = 'svc <no-reply@svc.test>';

const request = (to: string, subject: string) => ({ to, subject, text: `Hello ${to}`, html: `<p>Hello <b>${to}</b></p>`, kind: 'password-changed', user_id: 'u1' });

describe.each(testDatabaseKinds())('e-mail delivery on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let smtp: TestSmtpServer;
  let notify: NotifyServiceHandle;
  const deps = () => ({ database: db.database, bus, log });

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    smtp = await startSmtpServer();
    notify = await startNotify(deps(), { mail: { smtpUrl: smtp.url, from: FROM } });
  });

  afterAll(async () => {
    await notify?.stop();
    await smtp?.close();
    await bus?.close();
    await db?.dispose();
  });

  beforeEach(() => {
    smtp.received.length = 0;
    smtp.refuse();
  });

  it('sends a requested e-mail in text and HTML, once however often the event comes', async () => {
    const id = randomUUID();
    await bus.publish('email.requested', request('ada@example.test', 'Your password was changed'), { messageId: id });
    await bus.publish('email.requested', request('ada@example.test', 'Your password was changed'), { messageId: id });
    const mail = await until(() => smtp.received[0], 'the e-mail');
    expect(mail.subject).toBe('Your password was changed');
    expect(mail.from?.value[0]).toMatchObject({ address: 'no-reply@svc.test', name: 'svc' });
    expect(mail.to).toMatchObject({ text: 'ada@example.test' });
    expect(mail.text?.trim()).toBe('Hello ada@example.test');
    expect(mail.html).toContain('<b>ada@example.test</b>');
    expect(mail.messageId).toBe(`<${id}@svc>`);
    await until(async () => (await db.database.db.select().from(outbox)).every((row) => row.sentAt !== null), 'the row marked sent');
    await notify.outbox.sendDue();
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps e-mails while the relay refuses them, across a restart, and sends them once it is back', async () => {
    smtp.refuse('try later');
    await bus.publish('email.requested', request('bob@example.test', 'First'));
    await bus.publish('email.requested', request('bob@example.test', 'Second'));
    await until(async () => (await db.database.db.select().from(outbox)).filter((row) => row.lastError !== null).length === 2, 'two refused tries');
    await notify.stop();
    notify = await startNotify(deps(), { mail: { smtpUrl: smtp.url, from: FROM } });
    smtp.refuse();
    await until(() => smtp.received.length === 2, 'both e-mails');
    expect(smtp.received.map((m) => m.subject).sort()).toEqual(['First', 'Second']);
  });
});

describe('e-mail without an SMTP relay (embedded)', () => {
  it('writes each message as an .eml file under the mail folder', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'svc-mail-'));
    const [pglite] = testDatabaseKinds(undefined);
    const db = await pglite!.open();
    const bus = await createBus({ logger: log });
    const notify = await startNotify({ database: db.database, bus, log }, { mail: { directory, from: FROM } });
    try {
      const id = randomUUID();
      await bus.publish('email.requested', request('cy@example.test', 'Written to disk'), { messageId: id });
      await until(async () => (await readdir(directory)).includes(`${id}.eml`), 'the .eml file');
      const eml = await readFile(join(directory, `${id}.eml`), 'utf8');
      expect(eml).toContain('Subject: Written to disk');
      expect(eml).toContain('To: cy@example.test');
      expect(eml).toContain('Content-Type: text/html');
    } finally {
      await notify.stop();
      await bus.close();
      await db.dispose();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
