import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { BarChart } from '../ui/bar-chart.js';
import { ErrorNote } from '../ui/error-note.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';

const limitOf = (limit: number | null) => (limit === null ? 'no limit' : String(limit));

/** The tenant's usage: this month against its limits, runs by month as a chart, and by pack. */
export function Usage() {
  const summary = useLoad(() => dataOf(svc.api.GET('/api/v1/usage', {})));
  const history = useLoad(() => dataOf(svc.api.GET('/api/v1/usage/history', { params: { query: { months: 6 } } })));
  const byPack = useLoad(() => svc.usage.byPack());
  // The summary form (the dashboard form is asked for with a query this page does not send).
  const now = summary.data && 'period' in summary.data ? summary.data : undefined;
  return (
    <section>
      <h1>Usage</h1>
      <ErrorNote error={summary.error ?? history.error ?? byPack.error} />
      {now && (
        <dl className="facts">
          <dt>Period</dt>
          <dd>{now.period}</dd>
          <dt>Commands run</dt>
          <dd data-testid="commands-executed">
            {now.usage.commands_executed} of {limitOf(now.limits.commands_per_month)}
          </dd>
          <dt>Storage</dt>
          <dd>
            {now.usage.storage_bytes} bytes of {limitOf(now.limits.storage_bytes)}
          </dd>
        </dl>
      )}
      {history.data && (
        <>
          <h2>Commands by month</h2>
          <BarChart label="Commands run by month" points={[...history.data].sort((a, b) => a.period.localeCompare(b.period)).map((month) => ({ name: month.period, value: month.commands_executed }))} />
        </>
      )}
      {byPack.data && byPack.data.packs.length > 0 && (
        <>
          <h2>By pack this month</h2>
          <Table label="Usage by pack" columns={['Pack', 'Runs', 'Succeeded', 'Failed', 'Seconds']}>
            {byPack.data.packs.map((pack) => (
              <tr key={pack.pack}>
                <td>{pack.pack}</td>
                <td>{pack.commands_executed}</td>
                <td>{pack.commands_succeeded}</td>
                <td>{pack.commands_failed}</td>
                <td>{pack.execution_time_seconds}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </section>
  );
}
