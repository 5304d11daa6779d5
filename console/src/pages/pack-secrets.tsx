import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

/** `@namespace/pack` (the `@` optional) as the API's path parameters, or nothing when it is not one. */
function packOf(text: string): { namespace: string; pack: string } | undefined {
  const match = /^@?([^/\s]+)\/([^/\s]+)$/.exec(text.trim());
  return match ? { namespace: match[1]!, pack: match[2]! } : undefined;
}

/**
 * A pack's secrets for this tenant (the pack in the URL): their names only, since the platform
 * never answers a value; set one (a new value replaces the old), remove one.
 */
export function PackSecrets() {
  const [params, setParams] = useSearchParams();
  const chosen = params.get('pack') ?? '';
  const pack = packOf(chosen);
  const [draft, setDraft] = useState(chosen);
  const [secret, setSecret] = useState({ name: '', value: '' });
  const { data, error, reload } = useLoad(async () => (pack ? dataOf(svc.api.GET('/api/v1/secrets/{namespace}/{pack}', { params: { path: pack } })) : undefined), [chosen]);
  const set = useAction(async () => {
    await dataOf(svc.api.PUT('/api/v1/secrets/{namespace}/{pack}/{name}', { params: { path: { ...pack!, name: secret.name.trim() } }, body: { value: secret.value } }));
    setSecret({ name: '', value: '' });
    reload();
  });
  const remove = useAction(async (name: string) => {
    await dataOf(svc.api.DELETE('/api/v1/secrets/{namespace}/{pack}/{name}', { params: { path: { ...pack!, name } } }));
    reload();
  });
  const choose = (event: FormEvent) => {
    event.preventDefault();
    setParams(draft.trim() ? { pack: draft.trim() } : {});
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void set.run();
  };
  return (
    <section>
      <h1>Pack secrets</h1>
      <p className="muted">Values a pack's commands read when they run for you (API keys of other services). Only their names are ever shown.</p>
      <form className="row" onSubmit={choose} aria-label="Choose a pack">
        <Field label="Pack" placeholder="@namespace/pack" required value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">Show secrets</button>
      </form>
      {chosen && !pack && (
        <p role="alert" className="error">
          A pack is named @namespace/pack.
        </p>
      )}
      <ErrorNote error={set.error ?? remove.error ?? error} />
      {pack && data && (
        <>
          <h2>{data.pack}</h2>
          {data.secrets.length === 0 && <p>No secrets.</p>}
          {data.secrets.length > 0 && (
            <Table label="Secrets" columns={['Name', 'Set', '']}>
              {data.secrets.map((s) => (
                <tr key={s.name}>
                  <td className="code">{s.name}</td>
                  <td>{when(s.updated_at)}</td>
                  <td>
                    <button type="button" className="danger" onClick={() => void remove.run(s.name)} aria-label={`Remove ${s.name}`}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
          )}
          <form className="row" onSubmit={submit} aria-label="Set a secret">
            <Field label="Secret name" required autoComplete="off" placeholder="API_TOKEN" value={secret.name} onChange={(e) => setSecret({ ...secret, name: e.target.value })} />
            <Field label="Value" type="password" required autoComplete="off" value={secret.value} onChange={(e) => setSecret({ ...secret, value: e.target.value })} />
            <button type="submit" disabled={set.pending}>
              Set secret
            </button>
          </form>
        </>
      )}
    </section>
  );
}
