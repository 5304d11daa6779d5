import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { OutboxWriter } from '@svc/bus';
import type { OutboxDelivery } from '@svc/db';
import { renderEmail } from './templates.js';

export interface MailSettings {
  /** The SMTP relay: `smtp://` (STARTTLS when offered) or `smtps://`, with credentials if it needs them. */
  smtpUrl: string;
  /** The From address. */
  from: string;
  /** How often the outbox relay looks for rows due (default 5 s): e-mails to try again. */
  intervalMs?: number;
}

/** Tries per message before it is left unsent, with its last error. */
export const MAX_ATTEMPTS = 8;
/** 1 min after the first failed try, doubling, at most an hour: some 2 h in all before giving up. */
const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** (attempts - 1), 3_600_000);

/** An e-mail as identity's outbox holds it: kind `email`, `name` its template. */
const EmailPayload = z.object({ to: z.string(), data: z.record(z.string(), z.unknown()) });

/** Queues an e-mail in the transaction of the change that causes it; it is sent once that commits. */
export function queueEmail(out: OutboxWriter, to: string, template: string, data: Record<string, unknown>): void {
  out.add({ kind: 'email', name: template, payload: { to, data } satisfies z.input<typeof EmailPayload> });
}

export interface MailDelivery extends OutboxDelivery {
  close(): void;
}

/**
 * Sends the outbox's e-mails through an SMTP relay: right after their change commits (in the
 * background: a slow server holds no request up), and a failed one again with backoff by the
 * outbox relay, until MAX_ATTEMPTS; then it stays unsent with its last error.
 */
export function mailDelivery(settings: MailSettings): MailDelivery {
  // Pooled: a burst of messages goes over kept connections instead of a handshake each.
  const transport = nodemailer.createTransport({ url: settings.smtpUrl, pool: true });
  return {
    afterCommit: 'background',
    maxAttempts: MAX_ATTEMPTS,
    retryDelayMs,
    async deliver(row) {
      const { to, data } = EmailPayload.parse(row.payload);
      const { subject, text } = renderEmail(row.name, data);
      await transport.sendMail({ from: settings.from, to, subject, text });
    },
    close: () => transport.close(),
  };
}
