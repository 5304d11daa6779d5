import { htmlOfText } from '@svc/contracts';
import type { OutboxWriter } from '@svc/bus';
import { renderEmail } from './templates.js';

/**
 * Asks for an e-mail in the transaction of the change that causes it: `email.requested`, with
 * the template rendered here in text and HTML, published once that commits; the notify service
 * delivers it (and retries it until the relay takes it).
 */
export function queueEmail(out: OutboxWriter, to: string, template: string, data: Record<string, unknown>, userId: string | null = null): void {
  const { subject, text } = renderEmail(template, data);
  out.publish('email.requested', { to, subject, text, html: htmlOfText(text), kind: template, user_id: userId });
}
