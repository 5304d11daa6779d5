import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useLoad } from '../ui/use-load.js';

/** The catalogue: search and namespace in the URL, so that a filtered list is a link and survives a reload. */
export function Commands() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const namespace = params.get('namespace') ?? '';
  const [draft, setDraft] = useState({ search, namespace });
  const { data, error } = useLoad(
    () => dataOf(svc.api.GET('/api/v1/commands', { params: { query: { search: search || undefined, namespace: namespace || undefined, limit: 100 } } })),
    [search, namespace],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.search.trim()) next.set('search', draft.search.trim());
    if (draft.namespace.trim()) next.set('namespace', draft.namespace.trim().replace(/^@/, ''));
    setParams(next);
  };
  return (
    <section>
      <h1>Commands</h1>
      <form role="search" className="row" onSubmit={submit}>
        <Field label="Search" type="search" value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
        <Field label="Namespace" value={draft.namespace} onChange={(e) => setDraft({ ...draft, namespace: e.target.value })} />
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={error} />
      {data && (
        <>
          <p className="muted" role="status">
            {data.total} command{data.total === 1 ? '' : 's'}
          </p>
          <ul className="cards">
            {data.commands.map((command) => (
              <li key={`${command.namespace}/${command.name}`}>
                <Link to={`${CONSOLE_PATHS.commands}/${command.namespace}/${command.name}`}>
                  {command.namespace}/{command.name}
                </Link>
                <p>{command.description}</p>
                <small className="muted">
                  {command.pack}@{command.version} · {command.queue}
                </small>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
