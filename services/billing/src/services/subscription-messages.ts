import type { EventInput } from '@svc/contracts';

type Email = EventInput<'email.requested'>;

/** The e-mails of the payment-issue path: what each says lives here, beside nothing else. */
export const subscriptionEmails = {
  paymentFailed: (to: string, userId: string, graceEndsAt: Date): Email => ({
    to,
    user_id: userId,
    kind: 'payment-failed',
    subject: 'Your svc payment failed',
    text: `We could not collect your Pro subscription's payment. Your Pro access continues until ${graceEndsAt.toISOString()}; update your payment method in the billing portal before then to keep it.`,
  }),
  graceReminder: (to: string, userId: string, graceEndsAt: Date): Email => ({
    to,
    user_id: userId,
    kind: 'payment-reminder',
    subject: 'Reminder: your svc payment is still due',
    text: `Your Pro subscription's payment is still outstanding. Pro access ends on ${graceEndsAt.toISOString()} unless the payment goes through; update your payment method in the billing portal.`,
  }),
  expired: (to: string, userId: string): Email => ({
    to,
    user_id: userId,
    kind: 'subscription-expired',
    subject: 'Your svc Pro access has ended',
    text: 'The payment for your Pro subscription was not recovered within the grace period, so your account now has the Free plan\'s limits. Paying the open invoice in the billing portal restores Pro.',
  }),
  registrationCode: (to: string, code: string): Email => ({
    to,
    kind: 'registration-code',
    subject: 'Your svc access code',
    text: `Thank you for your payment. Register at svc with this access code: ${code}`,
  }),
};
