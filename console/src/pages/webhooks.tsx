import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { dataOf, type CreatedWebhook, type Webhook } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { ShownOnce } from '../ui/shown-once.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

/** Every event an endpoint can subscribe to (the API's list). */
const EVENTS: Webhook['events'] = ['command.executed', 'task.completed', 'task.failed', 'pack.installed', 'pack.uninstalled', 'dashboard_deleted'];

/** The tenant's webhook endpoints: register one (its signing secret shown once), list, remove. */
export function Webhooks() {
  const { data, error, reload } = useLoad(() => dataOf(svc.api.GET('/api/v1/webhooks', {})));
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Webhook['events']>([]);
  const [created, setCreated] = useState<CreatedWebhook | undefined>(undefined);
  const register = useAction(async () => {
    setCreated(await dataOf(svc.api.POST('/api/v1/webhooks', { body: { url: url.trim(), events, description: description.trim() } })));
    setUrl('');
    setDescription('');
    setEvents([]);
    reload();
  });
  const remove = useAction(async (id: string) => {
    await dataOf(svc.api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } }));
    reload();
  });
  const toggle = (event: Webhook['events'][number], on: boolean) => setEvents((now) => (on ? [...now, event] : now.filter((e) => e !== event)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void register.run();
  };
  return (
    <section>
      <h1>Webhooks</h1>
      <p className="muted">The platform posts the events you choose to your endpoint, signed with its secret.</p>
      <form onSubmit={submit} aria-label="Register an endpoint">
        <Field label="Endpoint URL" type="url" required placeholder="https://example.com/hooks" value={url} onChange={(e) => setUrl(e.target.value)} />
        <Field label="Description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <label key={name} className="check">
              <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.target.checked)} /> {name}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={register.pending}>
          Register endpoint
        </button>
      </form>
      <ErrorNote error={register.error ?? remove.error ?? error} />
      {created && <ShownOnce label={`Signing secret of ${created.url}`} value={created.secret} />}
      {data && data.length === 0 && <p>No endpoints.</p>}
      {data && data.length > 0 && (
        <Table label="Endpoints" columns={['URL', 'Events', 'Status', '']}>
          {data.map((hook) => (
            <tr key={hook.id}>
              <td className="code">
                <Link to={`${CONSOLE_PATHS.webhooks}/${hook.id}`}>{hook.url}</Link>
                {hook.description && <div className="muted">{hook.description}</div>}
              </td>
              <td>{hook.events.join(', ')}</td>
              <td>{hook.status === 'disabled' ? 'disabled' : hook.failing_since ? `failing since ${when(hook.failing_since)}` : 'active'}</td>
              <td>
                <button type="button" className="danger" onClick={() => void remove.run(hook.id)} aria-label={`Remove ${hook.url}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
