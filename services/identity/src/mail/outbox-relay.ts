import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { OutboxRepository, type OutboxRow } from '../repositories/outbox.repository.js';
import { renderEmail } from './templates.js';

export interface MailSettings {
  /** The SMTP relay: `smtp://` (STARTTLS when offered) or `smtps://`, with credentials if it needs them. */
  smtpUrl: string;
  /** The From address. */
  from: string;
  /** How often the outbox is read (default 5 s). */
  intervalMs?: number;
}

const BATCH = 20;
/** Tries per message before it is left unsent, with its last error. */
export const MAX_ATTEMPTS = 8;
/** A message taken for sending is no other relay's for this long; one whose relay died is tried again after it. */
const LEASE_MS = 5 * 60_000;
/** 1 min after the first failed try, doubling, at most an hour: some 2 h in all before giving up. */
const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** (attempts - 1), 3_600_000);

/**
 * Sends the e-mails of the outbox through an SMTP relay, best effort: every replica may run one,
 * each message is sent by one of them (a lease taken with SKIP LOCKED), a failed send is tried
 * again with backoff, and a message still unsent after MAX_ATTEMPTS stays with its last error.
 */
export class OutboxRelay {
  private readonly transport: Transporter;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: MailSettings,
    private readonly log: Logger,
  ) {
    // Pooled: a burst of messages goes over kept connections instead of a handshake each.
    this.transport = nodemailer.createTransport({ url: settings.smtpUrl, pool: true });
  }

  start(): void {
    this.timer = setInterval(() => {
      this.sendDue().catch((err: Error) => this.log.error('outbox not read', { error: err.message }));
    }, this.settings.intervalMs ?? 5000);
  }

  /** Sends every message due now; a pass already under way is joined, not doubled. */
  sendDue(): Promise<void> {
    this.pass ??= this.sendBatches().finally(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pass?.catch(() => undefined);
    this.transport.close();
  }

  private async sendBatches(): Promise<void> {
    const outbox = new OutboxRepository(this.db);
    for (;;) {
      const batch = await outbox.leaseDue(BATCH, LEASE_MS, MAX_ATTEMPTS);
      for (const message of batch) await this.send(outbox, message);
      if (batch.length < BATCH) return;
    }
  }

  private async send(outbox: OutboxRepository, message: OutboxRow): Promise<void> {
    try {
      const { subject, text } = renderEmail(message.template, message.payload);
      await this.transport.sendMail({ from: this.settings.from, to: message.recipient, subject, text });
      await outbox.markSent(message.id);
    } catch (err) {
      const error = (err as Error).message;
      const retryInMs = message.attempts < MAX_ATTEMPTS ? retryDelayMs(message.attempts) : undefined;
      await outbox.markFailed(message.id, error, retryInMs);
      this.log.warn('e-mail not sent', { outbox_id: message.id, template: message.template, attempts: message.attempts, error, given_up: retryInMs === undefined });
    }
  }
}
