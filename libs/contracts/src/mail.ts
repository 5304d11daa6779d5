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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/**
 * Text made safe inside HTML, in content and in quoted attribute values.
 *
 * @example
 *   escapeHtml('<b>"Ada"</b>'); // '&lt;b&gt;&quot;Ada&quot;&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * The HTML part of a message written as plain text: its paragraphs (blank-line separated) as
 * `<p>`, lines kept, indented lines (codes, commands) as `<code>`, everything escaped. One
 * wording serves both parts, so they never say different things.
 *
 * @example
 *   htmlOfText('Hello,\n\nYour code:\n\n    SVC-AB12-CD34'); // '<p>Hello,</p>\n<p>Your code:</p>\n<p><code>SVC-AB12-CD34</code></p>'
 */
export function htmlOfText(text: string): string {
  const line = (raw: string) => (/^\s{2,}\S/.test(raw) ? `<code>${escapeHtml(raw.trim())}</code>` : escapeHtml(raw));
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split('\n').map(line).join('<br>\n')}</p>`)
    .join('\n');
}
