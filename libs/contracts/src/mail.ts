import { z } from 'zod';

/**
 * Any service asks for an e-mail; the notify service delivers it, at least once (the event id is
 * the message's idempotency key, so a redelivered event sends nothing twice). The sender renders
 * its own text and HTML, so that what a message says lives beside the change that causes it.
 */
export const EmailRequested = z.object({
  to: z.string().email(),
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string().optional(),
  /** What the message is about, for logs and the delivery record: `password-changed`, `payment-failed`, … */
  kind: z.string().regex(/^[a-z0-9-]{1,64}$/),
  /** The user it concerns, when there is one. */
  user_id: z.string().nullable().default(null),
});
