import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@svc/core';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import { mailTransport } from './mail-transport.js';

// Whether this file's process has loaded nodemailer: a transport that sent nothing must not have.
const loaded = vi.hoisted(() => ({ nodemailer: false }));
vi.mock('nodemailer', async (original) => {
  loaded.nodemailer = true;
  return original();
});

const log = createLogger({ service: 'mail-transport-test', silent: true });
const FROM = 'svc <no-reply@svc.test>';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

describe('nodemailer', () => {
  it('is not loaded by transports that send nothing, closed or not', () => {
    mailTransport({ smtpUrl: smtp.url, from: FROM }, log).close();
    mailTransport({ directory: tmpdir(), from: FROM }, log);
    expect(loaded.nodemailer).toBe(false);
  });

  it('is loaded with the first message, which then reaches the relay', async () => {
    const transport = mailTransport({ smtpUrl: smtp.url, from: FROM }, log);
    try {
      await transport.send({ id: randomUUID(), to: 'dee@example.test', subject: 'First of the day', text: 'Hello' });
      expect(loaded.nodemailer).toBe(true);
      expect(smtp.received.map((mail) => mail.subject)).toContain('First of the day');
    } finally {
      transport.close();
    }
  });

  it('writes the first message to its file when there is no relay', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'svc-mail-first-'));
    try {
      const id = randomUUID();
      await mailTransport({ directory, from: FROM }, log).send({ id, to: 'eve@example.test', subject: 'On disk', text: 'Hello' });
      expect(await readFile(join(directory, `${id}.eml`), 'utf8')).toContain('Subject: On disk');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
