import type { EventInput } from '@svc/contracts';

/** What a user is told when an operator changes their tier. */
export function tierChangedEmail(to: string, userId: string, tier: string, previousTier: string): EventInput<'email.requested'> {
  return {
    to,
    user_id: userId,
    kind: 'tier-changed',
    subject: 'Your svc plan has changed',
    text: `Your account's plan changed from ${previousTier} to ${tier}. The new plan's limits apply from now on.`,
  };
}
