import { Link, useParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CompCode } from '../operators/comp-code.js';
import { RevokeSessions } from '../operators/revoke-sessions.js';
import { TierChange } from '../operators/tier-change.js';
import { CONSOLE_PATHS } from '../paths.js';
import { dollars } from '../ui/dollars.js';
import { ErrorNote } from '../ui/error-note.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

/** Where the subscription shown comes from (the API's `source`). */
const SOURCES: Record<string, string> = { billing: 'live from billing (kept a minute)', read_model: 'as last announced (billing did not answer)' };

/** One user, for operators: the account, its subscription and billing events, its access code's digest; change the tier, end its sessions, mint a comp code. */
export function UserDetail() {
  const { id = '' } = useParams();
  const { data, error, reload } = useLoad(() => dataOf(svc.api.GET('/api/v1/admin/users/{id}', { params: { path: { id } } })), [id]);
  const user = data?.user;
  const subscription = data?.subscription;
  return (
    <section>
      <p>
        <Link to={CONSOLE_PATHS.operators}>Operators</Link>
      </p>
      <h1>{user ? user.email : 'User'}</h1>
      <ErrorNote error={error} />
      {user && subscription && (
        <>
          <dl className="facts">
            <dt>User id</dt>
            <dd className="code">{user.user_id}</dd>
            <dt>Tenant id</dt>
            <dd className="code">{user.tenant_id}</dd>
            <dt>Tier</dt>
            <dd data-testid="user-tier">{user.tier}</dd>
            <dt>Referral</dt>
            <dd>{user.cohort}</dd>
            <dt>Joined</dt>
            <dd>{when(user.created_at)}</dd>
            <dt>Access code</dt>
            <dd>{data.access_code ? <span className="code">{data.access_code.digest.slice(0, 16)}… ({data.access_code.cohort})</span> : 'none (set up with the platform)'}</dd>
            <dt>Payment customer</dt>
            <dd>{user.payment_customer_id_present ? 'yes' : 'none'}</dd>
          </dl>
          <h2>Subscription</h2>
          <dl className="facts">
            <dt>Tier</dt>
            <dd>{subscription.tier}</dd>
            <dt>Status</dt>
            <dd data-testid="subscription-status">{subscription.status ?? 'none'}</dd>
            <dt>Payment issue</dt>
            <dd>{subscription.payment_issue ? 'yes' : 'no'}</dd>
            <dt>Period ends</dt>
            <dd>{when(subscription.current_period_end)}</dd>
            <dt>Monthly</dt>
            <dd>{dollars(subscription.monthly_price_cents)}</dd>
            <dt>Source</dt>
            <dd>{SOURCES[subscription.source] ?? subscription.source}</dd>
          </dl>
          <h2>Recent billing events</h2>
          {data.recent_billing_events.length === 0 ? (
            <p>None.</p>
          ) : (
            <Table label="Recent billing events" columns={['When', 'Event', 'Amount']}>
              {data.recent_billing_events.map((event) => (
                <tr key={event.id}>
                  <td>{when(event.occurred_at)}</td>
                  <td>{event.type}</td>
                  <td>{event.amount_cents === null ? '—' : dollars(event.amount_cents)}</td>
                </tr>
              ))}
            </Table>
          )}
          <TierChange userId={user.user_id} tier={user.tier} onChanged={reload} />
          <RevokeSessions userId={user.user_id} email={user.email} />
          <CompCode userId={user.user_id} />
        </>
      )}
    </section>
  );
}
