import { dataOf, SvcError, type components } from '@svc/client';
import { useSearchParams } from 'react-router';
import { svc } from '../app/svc.js';
import { openPortal, startCheckout } from '../billing/processor.js';
import { SubscriptionState } from '../billing/subscription-state.js';
import { dollars } from '../ui/dollars.js';
import { ErrorNote } from '../ui/error-note.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

type Plan = components['schemas']['Plan'];

const perPeriod = (plan: Plan) => (plan.price === 0 ? 'Free' : `${dollars(plan.price)} a ${plan.interval ?? 'period'}`);
const count = (n: number, what: string) => (n === -1 ? `Unlimited ${what}` : `${n} ${what}`);

/** A 503 of checkout or the portal: the platform takes no payments; said plainly rather than as an error. */
const notConfigured = (error: unknown) => error instanceof SvcError && error.status === 503;

/** The signed-in person's plan and subscription: the plans, upgrading through the processor's checkout, its customer portal. */
export function Billing() {
  const [params] = useSearchParams();
  const status = useLoad(() => dataOf(svc.api.GET('/api/v1/billing/status', {})));
  const plans = useLoad(() => dataOf(svc.api.GET('/api/v1/billing/plans', {})));
  const checkout = useAction(startCheckout);
  const portal = useAction(openPortal);
  const actionError = checkout.error ?? portal.error;
  const current = status.data?.subscription_tier;
  const upgradable = current === 'free' || current === 'developer_preview';
  return (
    <section>
      <h1>Billing</h1>
      {params.get('checkout') === 'canceled' && <p role="status">Checkout canceled: nothing was charged.</p>}
      <ErrorNote error={status.error ?? plans.error} />
      {status.data && (
        <dl className="facts">
          <dt>Tier</dt>
          <dd data-testid="billing-tier">{status.data.subscription_tier}</dd>
          <dt>Subscription</dt>
          <dd data-testid="billing-state">
            <SubscriptionState status={status.data} />
          </dd>
        </dl>
      )}
      {notConfigured(actionError) ? (
        <p role="status" className="notice">
          Payments are not set up on this platform, so plans cannot be bought or managed here. Ask the platform’s operators.
        </p>
      ) : (
        <ErrorNote error={actionError} />
      )}
      {status.data?.payment_customer_id && (
        <p>
          <button type="button" className="secondary" onClick={() => void portal.run()} disabled={portal.pending}>
            Manage payment and invoices
          </button>
        </p>
      )}
      <h2>Plans</h2>
      {plans.data && (
        <ul className="cards" aria-label="Plans">
          {plans.data.map((plan) => (
            <li key={plan.id}>
              <h3>
                {plan.name}
                {plan.id === current && <span className="muted"> (your plan)</span>}
              </h3>
              <p>{perPeriod(plan)}</p>
              <ul>
                <li>{count(plan.limits.requests_per_minute, 'requests a minute')}</li>
                <li>{count(plan.limits.commands_per_hour, 'command runs an hour')}</li>
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
              {plan.id === 'pro' && upgradable && (
                <button type="button" onClick={() => void checkout.run()} disabled={checkout.pending}>
                  Upgrade to Pro
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
