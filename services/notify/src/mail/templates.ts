import { htmlOfText, type EmailRequested } from '@svc/contracts';
import type { z } from 'zod';
import type { WebhookRow } from '../db/schema.js';

/** The e-mail telling an endpoint's owner that it was disabled, in plain text and HTML. */
export function webhookDisabledEmail(hook: WebhookRow, lastError: string | null): z.input<typeof EmailRequested> {
  const since = hook.failingSince?.toISOString() ?? 'a day';
  const text = [
    'Hello,',
    '',
    `Your svc webhook endpoint ${hook.url} (id ${hook.id}) has failed every delivery since ${since},`,
    'so it was disabled and receives no more events. Its undelivered events are marked failed.',
    '',
    `Last error: ${lastError ?? 'no successful answer'}`,
    '',
    'Once the receiver answers again, register the endpoint anew (POST /api/v1/webhooks); its',
    'delivery log stays readable until you delete the old one.',
  ].join('\n');
  return { to: hook.ownerEmail, subject: 'Your svc webhook endpoint was disabled', text, html: htmlOfText(text), kind: 'webhook-disabled', user_id: hook.createdBy };
}
