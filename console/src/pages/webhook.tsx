import { Link, useParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

/** One endpoint: a test event (ping), and its deliveries, newest first, each of which can be sent again. */
export function WebhookPage() {
  const id = useParams().id!;
  const path = { params: { path: { id } } };
  const hook = useLoad(() => dataOf(svc.api.GET('/api/v1/webhooks/{id}', path)), [id]);
  const deliveries = useLoad(() => dataOf(svc.api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 50 } } })), [id]);
  const ping = useAction(async () => {
    await dataOf(svc.api.POST('/api/v1/webhooks/{id}/ping', path));
    deliveries.reload();
  });
  const redeliver = useAction(async (deliveryId: string) => {
    await dataOf(svc.api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id, delivery_id: deliveryId } } }));
    deliveries.reload();
  });
  return (
    <section>
      <p>
        <Link to={CONSOLE_PATHS.webhooks}>All endpoints</Link>
      </p>
      <h1>Endpoint</h1>
      {hook.data && (
        <dl className="facts">
          <dt>URL</dt>
          <dd className="code">{hook.data.url}</dd>
          <dt>Events</dt>
          <dd>{hook.data.events.join(', ')}</dd>
          <dt>Status</dt>
          <dd>{hook.data.status}</dd>
        </dl>
      )}
      <div className="row">
        <button type="button" onClick={() => void ping.run()} disabled={ping.pending}>
          Send a test event
        </button>
        <button type="button" onClick={deliveries.reload}>
          Refresh deliveries
        </button>
      </div>
      <ErrorNote error={hook.error ?? deliveries.error ?? ping.error ?? redeliver.error} />
      <h2>Deliveries</h2>
      {deliveries.data && deliveries.data.length === 0 && <p>No deliveries yet.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <Table label="Deliveries" columns={['Event', 'Status', 'Tries', 'Response', 'Created', 'Delivered', '']}>
          {deliveries.data.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                {delivery.event_type} <span className="code muted">{delivery.event_id}</span>
              </td>
              <td>{delivery.status}</td>
              <td>{delivery.attempts}</td>
              <td>{delivery.response_code ?? delivery.last_error ?? '—'}</td>
              <td>{when(delivery.created_at)}</td>
              <td>{when(delivery.delivered_at)}</td>
              <td>
                <button type="button" onClick={() => void redeliver.run(delivery.id)} aria-label={`Redeliver ${delivery.event_type} ${delivery.event_id}`}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
