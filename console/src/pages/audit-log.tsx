import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { dataOf, type components } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

type AuditEntry = components['schemas']['AuditEntry'];

/** The platform's audit log (its owner's), newest first: filtered by action and actor (in the URL), a page at a time. */
export function AuditLog() {
  const [params, setParams] = useSearchParams();
  const action = params.get('action') ?? '';
  const actor = params.get('actor') ?? '';
  const [draft, setDraft] = useState({ action, actor });
  const [more, setMore] = useState<{ entries: AuditEntry[]; next: string | null } | undefined>(undefined);
  const query = { action: action || undefined, actor_id: actor || undefined, limit: 50 };
  const first = useLoad(async () => {
    setMore(undefined);
    return dataOf(svc.api.GET('/api/v1/admin/audit-log', { params: { query } }));
  }, [action, actor]);
  const next = more ? more.next : (first.data?.next_cursor ?? null);
  const older = useAction(async () => {
    const page = await dataOf(svc.api.GET('/api/v1/admin/audit-log', { params: { query: { ...query, cursor: next! } } }));
    setMore({ entries: [...(more?.entries ?? []), ...page.entries], next: page.next_cursor });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filters = Object.entries({ action: draft.action.trim(), actor: draft.actor.trim() }).filter(([, v]) => v);
    setParams(Object.fromEntries(filters));
  };
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
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
      <ErrorNote error={first.error ?? older.error} />
      {first.data && entries.length === 0 && <p>No entries.</p>}
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
      {next && (
        <button type="button" onClick={() => void older.run()} disabled={older.pending}>
          Older entries
        </button>
      )}
    </section>
  );
}
