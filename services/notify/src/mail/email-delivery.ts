import { EmailRequested } from '@svc/contracts';
import type { OutboxDelivery } from '@svc/db';
import { backoffDelayMs, type BackoffSettings } from '@svc/core';
import type { MailTransport } from './mail-transport.js';

/**
 * Sends the outbox's e-mails (kind `email`, payload an `EmailRequested`) through the transport:
 * right after the row commits, in the background (a slow relay holds nothing up), then again
 * by the outbox relay with backoff until it goes through. Never given up: a message waits in
 * `notify.outbox` for as long as the relay is down, and a restart loses nothing.
 */
export function emailDelivery(transport: MailTransport, retry: BackoffSettings): OutboxDelivery {
  return {
    afterCommit: 'background',
    retryDelayMs: (attempts) => backoffDelayMs(retry, attempts),
    async deliver(row) {
      const { to, subject, text, html } = EmailRequested.parse(row.payload);
      await transport.send({ id: row.id, to, subject, text, html });
    },
  };
}
