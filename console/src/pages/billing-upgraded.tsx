import { useEffect } from 'react';
import { dataOf } from '@svc/client';
import { Link } from 'react-router';
import { useSession } from '../app/session.js';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { usePoll } from '../ui/use-poll.js';

/**
 * The processor confirms a payment with a webhook shortly after the person is sent back. Asked
 * at 0, 3, 7.5, 14, 24 and 40 s, then every 30 s: six asks in the first minute, which with the
 * page's own load and the billing page before it stay within a free account's 10 requests.
 */
const PACE = { firstMs: 3000, maxMs: 30_000 };

/** Checkout's return page: asks the status, less often as time goes on, until the upgrade shows. */
export function BillingUpgraded() {
  const { data, error } = usePoll(() => dataOf(svc.api.GET('/api/v1/billing/status', {})), (status) => status.subscription_tier === 'pro', PACE);
  const upgraded = data?.subscription_tier === 'pro';
  const { learned } = useSession();
  // The rest of the console shows the tier it read at sign-in: it learns of Pro here, not at the next load.
  useEffect(() => {
    if (upgraded) learned({ subscriptionTier: 'pro' });
  }, [upgraded, learned]);
  return (
    <section>
      <h1>Upgrade</h1>
      <ErrorNote error={error} />
      {!error && (
        <p role="status" data-testid="upgrade-state">
          {upgraded ? 'You are on Pro. Thank you!' : 'Waiting for the payment to be confirmed…'}
        </p>
      )}
      <p>
        <Link to={CONSOLE_PATHS.billing}>Billing</Link>
      </p>
    </section>
  );
}
