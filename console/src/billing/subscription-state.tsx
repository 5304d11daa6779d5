import type { components } from '@svc/client';
import { when } from '../ui/when.js';

type BillingStatus = components['schemas']['BillingStatus'];

/** An instant from the API, readable and machine-readable. */
const At = ({ iso, testId }: { iso: string; testId?: string }) => (
  <time dateTime={iso} data-testid={testId}>
    {when(iso)}
  </time>
);

/** The subscription's state in words (Part 2, States): what access the person has, and until when. */
export function SubscriptionState({ status }: { status: BillingStatus }) {
  const tier = status.subscription_tier;
  switch (status.status) {
    case 'active':
      return <>Active{status.current_period_end && <>, renews <At iso={status.current_period_end} /></>}.</>;
    case 'past_due':
      return (
        <>
          Payment failed. Pro stays on during a 7-day grace period, until {status.grace_ends_at ? <At iso={status.grace_ends_at} testId="grace-ends" /> : 'its end'}; then the
          account returns to the free tier. Update the payment method in the billing portal.
        </>
      );
    case 'canceled':
      return <>Canceled: Pro {status.current_period_end ? <>until <At iso={status.current_period_end} testId="access-ends" /></> : 'until the paid period ends'}, then the free tier.</>;
    case 'expired':
      return <>Expired: the subscription has ended, and the {tier} tier’s limits apply.</>;
    default:
      return <>No subscription: the {tier} tier’s limits apply.</>;
  }
}
