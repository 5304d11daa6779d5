import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '@svc/core';

/** Where e-mails go: an SMTP relay, or (embedded mode without one) `.eml` files in a folder. */
export type MailSettings = { smtpUrl: string; from: string } | { directory: string; from: string };

export interface OutgoingEmail {
  /** The message's id (the `email.requested` event's): its file name, and its Message-ID's left part. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailTransport {
  /** Resolves once the relay has accepted the message (its 250) or the file is written. */
  send(message: OutgoingEmail): Promise<void>;
  close(): void;
}

const messageOf = (from: string, message: OutgoingEmail) => ({
  from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  ...(message.html ? { html: message.html } : {}),
  // The same id on every try, so that a receiver that got a message twice can tell.
  messageId: `<${message.id}@svc>`,
});

/**
 * nodemailer over a pooled SMTP connection (a burst goes over kept connections), or its stream
 * transport writing each message, as sent, to `<directory>/<id>.eml` with a log line saying where.
 * nodemailer is loaded with the first message, so that a process that sends none never holds its
 * modules (1 MB of V8's heap and more outside it; BENCHMARKS.md, twentieth round).
 */
export function mailTransport(settings: MailSettings, log: Logger): MailTransport {
  let opened: Promise<Transporter> | undefined;
  const transporter = () =>
    (opened ??= import('nodemailer').then(({ default: nodemailer }) =>
      'smtpUrl' in settings ? nodemailer.createTransport({ url: settings.smtpUrl, pool: true }) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const close = () => void opened?.then((transport) => transport.close());
  if ('smtpUrl' in settings) {
    return {
      send: async (message) => {
        await (await transporter()).sendMail(messageOf(settings.from, message));
      },
      close,
    };
  }
  return {
    async send(message) {
      const info = await (await transporter()).sendMail(messageOf(settings.from, message));
      await mkdir(settings.directory, { recursive: true });
      const path = join(settings.directory, `${message.id}.eml`);
      await writeFile(path, info.message as Buffer);
      log.info('e-mail written (no SMTP_URL)', { to: message.to, subject: message.subject, path });
    },
    close,
  };
}
