import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { StorageEntry } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

/** The tenant's storage: keys by prefix (in the URL), one entry's value, delete. */
export function Storage() {
  const [params, setParams] = useSearchParams();
  const prefix = params.get('prefix') ?? '';
  const [draft, setDraft] = useState(prefix);
  const { data, error, reload } = useLoad(() => svc.storage.list({ prefix: prefix || undefined, limit: 100 }), [prefix]);
  const [entry, setEntry] = useState<StorageEntry | undefined>(undefined);
  const view = useAction(async (key: string) => setEntry(await svc.storage.get(key)));
  const remove = useAction(async (key: string) => {
    await svc.storage.delete(key);
    if (entry?.key === key) setEntry(undefined);
    reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(draft.trim() ? { prefix: draft.trim() } : {});
  };
  return (
    <section>
      <h1>Storage</h1>
      <form role="search" className="row" onSubmit={submit}>
        <Field label="Key prefix" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">List</button>
      </form>
      <ErrorNote error={view.error ?? remove.error ?? error} />
      {data && (
        <p className="muted" role="status">
          {data.total} key{data.total === 1 ? '' : 's'}
        </p>
      )}
      <ul>
        {data?.keys.map((key) => (
          <li key={key} className="row">
            <button type="button" className="secondary" onClick={() => void view.run(key)} aria-label={`View ${key}`}>
              {key}
            </button>
            <button type="button" className="danger" onClick={() => void remove.run(key)} aria-label={`Delete ${key}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {entry && (
        <section aria-label={`Entry ${entry.key}`}>
          <h2>{entry.key}</h2>
          <p className="muted">Expires {entry.expires_at ? new Date(entry.expires_at).toLocaleString() : 'never'}</p>
          <pre data-testid="entry">{JSON.stringify(entry.value, null, 2)}</pre>
        </section>
      )}
    </section>
  );
}
