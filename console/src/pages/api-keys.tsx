import { useState, type FormEvent } from 'react';
import { dataOf, type NewApiKey } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { ShownOnce } from '../ui/shown-once.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';
import { when } from '../ui/when.js';

/** The one scope keys have: running commands (`POST /commands/…`, `/mcp`). */
const SCOPES = ['commands:execute'];

/** API keys of the signed-in person: create (the key shown once), list, revoke. */
export function ApiKeys() {
  const { data, error, reload } = useLoad(() => dataOf(svc.api.GET('/api/v1/account/api-keys', {})));
  const [name, setName] = useState('');
  const [created, setCreated] = useState<NewApiKey | undefined>(undefined);
  const create = useAction(async () => {
    setCreated(await dataOf(svc.api.POST('/api/v1/account/api-keys', { body: { name: name.trim(), scopes: SCOPES } })));
    setName('');
    reload();
  });
  const revoke = useAction(async (keyId: string) => {
    await dataOf(svc.api.DELETE('/api/v1/account/api-keys/{key_id}', { params: { path: { key_id: keyId } } }));
    reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <section>
      <h1>API keys</h1>
      <p className="muted">A key runs commands as you, from scripts, CI and MCP clients. It cannot manage your account.</p>
      <form className="row" onSubmit={submit} aria-label="Create an API key">
        <Field label="Key name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={create.pending}>
          Create key
        </button>
      </form>
      <ErrorNote error={create.error ?? revoke.error ?? error} />
      {created && <ShownOnce label={`New key ${created.name}`} value={created.key} />}
      {data && data.length === 0 && <p>No API keys.</p>}
      {data && data.length > 0 && (
        <Table label="API keys" columns={['Name', 'Key', 'Last used', 'Created', 'Status', '']}>
          {data.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td className="code">{key.key_prefix}…</td>
              <td>{when(key.last_used_at)}</td>
              <td>{when(key.created_at)}</td>
              <td>{key.revoked_at ? `revoked ${when(key.revoked_at)}` : 'active'}</td>
              <td>
                {!key.revoked_at && (
                  <button type="button" className="danger" onClick={() => void revoke.run(key.id)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
