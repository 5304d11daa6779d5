import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { usePages } from '../ui/use-pages.js';
import { when } from '../ui/when.js';

/** The platform's audit log (its owner's), newest first: filtered by action and actor (in the URL), a page at a time. */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const action = params.get('action') ?? '';
  const actor = params.get('actor') ?? '';
  const [draft, setDraft] = useState({ action, actor });
  const query = { action: action || undefined, actor_id: actor || undefined, limit: 50 };
  const log = usePages(async (cursor) => {
    const page = await dataOf(svc.api.GET('/api/v1/admin/audit-log', { params: { query: { ...query, cursor } } }));
    return { items: page.entries, next: page.next_cursor };
  }, [action, actor]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filters = Object.entries({ action: draft.action.trim(), actor: draft.actor.trim() }).filter(([, v]) => v);
    setParams(Object.fromEntries(filters));
  };
  const entries = log.items ?? [];
  return (
    <section>
      <p>
        <Link to={CONSOLE_PATHS.operators}>Operators</Link>
      </p>
      <h1>Audit log</h1>
      <form role="search" className="row" onSubmit={submit}>
        <Field label="Action" placeholder="admin.users.list" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })} />
        <Field label="Actor id" value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.target.value })} />
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={log.error} />
      {log.items && entries.length === 0 && <p>No entries.</p>}
      {entries.length > 0 && (
        <Table label="Audit log" columns={['When', 'Actor', 'Action', 'Target', 'Outcome']}>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{when(entry.at)}</td>
              <td className="code">
                {entry.actor_id} <span className="muted">({entry.actor_role})</span>
              </td>
              <td className="code">{entry.action}</td>
              <td className="code">{entry.target ?? '—'}</td>
              <td>{entry.outcome}</td>
            </tr>
          ))}
        </Table>
      )}
      {log.hasMore && (
        <button type="button" onClick={log.more} disabled={log.loadingMore}>
          Older entries
        </button>
      )}
    </section>
  );
}
