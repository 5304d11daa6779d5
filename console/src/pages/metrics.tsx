import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { BarChart } from '../ui/bar-chart.js';
import { dayStart } from '../ui/day-bounds.js';
import { dollars } from '../ui/dollars.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

/** The funnel's steps in words short enough for a bar's label (the table below names them in full). */
const STEP_LABELS: Record<string, string> = { signup: 'signed up', access_code_redeemed: 'code', developer_activated: 'developer', pack_created: 'pack', command_executed: 'ran' };

type RevenueEvent = { type: string; data: { amount_cents?: unknown } };

/** The billing events that are money received, by the short name of their bar (a failed payment or a dispute is not). */
const PAID: Record<string, string> = { 'checkout.completed': 'checkout', 'invoice.paid': 'invoice', 'registration.completed': 'code' };

/** The recent payments, newest first, as bars in dollars. */
const paymentsOf = (events: RevenueEvent[]) =>
  events.filter((e) => PAID[e.type] && typeof e.data.amount_cents === 'number').map((e) => ({ name: PAID[e.type]!, value: (e.data.amount_cents as number) / 100 }));

/** Operators' metrics: the onboarding funnel and revenue as charts, and every event since as a CSV download. */
export function Metrics() {
  const [params, setParams] = useSearchParams();
  const day = params.get('since') ?? '';
  const [draft, setDraft] = useState(day);
  const since = dayStart(day);
  const funnel = useLoad(() => dataOf(svc.api.GET('/api/v1/metrics/onboarding', { params: { query: { since } } })), [day]);
  const revenue = useLoad(() => dataOf(svc.api.GET('/api/v1/metrics/revenue', {})));
  const download = useAction(async () => {
    const { data, error, response } = await svc.api.GET('/api/v1/metrics/export', { params: { query: { format: 'csv', since } }, parseAs: 'text' });
    if (!response.ok) throw new Error(typeof error === 'string' ? error : `The export failed (${response.status})`);
    // A file the person saves: a link to the text as a blob, clicked, then let go.
    const url = URL.createObjectURL(new Blob([data as unknown as string], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `svc-events${day ? `-since-${day}` : ''}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(draft ? { since: draft } : {});
  };
  return (
    <section>
      <p>
        <Link to={CONSOLE_PATHS.operators}>Operators</Link>
      </p>
      <h1>Metrics</h1>
      <form className="row" onSubmit={submit} aria-label="Period">
        <Field label="Since" type="date" value={draft} onChange={(e) => setDraft(e.target.value)} hint="Empty: since the beginning" />
        <button type="submit">Show</button>
        <button type="button" onClick={() => void download.run()} disabled={download.pending}>
          Download events (CSV)
        </button>
      </form>
      <ErrorNote error={funnel.error ?? revenue.error ?? download.error} />
      <h2>Onboarding funnel</h2>
      {funnel.data && (
        <>
          <BarChart label="Users at each onboarding step" points={funnel.data.funnel.map((step) => ({ name: STEP_LABELS[step.step] ?? step.step, value: step.count }))} />
          <Table label="Onboarding funnel" columns={['Step', 'Users', 'Of signups']}>
            {funnel.data.funnel.map((step) => (
              <tr key={step.step}>
                <td>{step.step}</td>
                <td>{step.count}</td>
                <td>{step.conversion_pct}%</td>
              </tr>
            ))}
          </Table>
        </>
      )}
      <h2>Revenue</h2>
      {revenue.data && (
        <>
          <dl className="facts">
            <dt>Monthly recurring revenue</dt>
            <dd data-testid="mrr">{dollars(revenue.data.mrr_cents)}</dd>
            <dt>Pro subscribers</dt>
            <dd data-testid="pro-subscribers">{revenue.data.active_pro_subscribers}</dd>
          </dl>
          {revenue.data.recent_events.length === 0 ? (
            <p>No payments yet.</p>
          ) : (
            <>
              <BarChart label="Recent payments (dollars)" points={paymentsOf(revenue.data.recent_events)} />
              <Table label="Recent revenue events" columns={['When', 'Event', 'Amount']}>
                {revenue.data.recent_events.map((e, index) => (
                  <tr key={index}>
                    <td>{when(e.created_at)}</td>
                    <td>{e.type}</td>
                    <td>{typeof e.data.amount_cents === 'number' ? dollars(e.data.amount_cents) : '—'}</td>
                  </tr>
                ))}
              </Table>
            </>
          )}
        </>
      )}
    </section>
  );
}
