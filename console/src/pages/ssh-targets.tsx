import { useEffect, useId, useState, type FormEvent } from 'react';
import { svc } from '../app/svc.js';
import { bareOf } from '../app/bare-of.js';
import { fingerprintOfLine } from '../ssh/known-hosts.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

type AuthMethod = 'key' | 'password';
const EMPTY = { name: '', host: '', port: '22', username: '', auth_method: 'key' as AuthMethod, credential: '' };

/** The tenant's SSH targets: register one, verify it (its host key's fingerprint), trust that key, remove. */
export function SshTargets() {
  const { data, error, reload } = useLoad(() => bareOf(svc.api.GET('/api/v1/ssh/targets', {}), 'GET /api/v1/ssh/targets'));
  const [draft, setDraft] = useState(EMPTY);
  const [verifying, setVerifying] = useState<string | undefined>(undefined);
  const keyId = useId();
  const create = useAction(async () => {
    const { credential, port, ...target } = draft;
    const secret = draft.auth_method === 'key' ? { private_key: credential } : { password: credential };
    await bareOf(svc.api.POST('/api/v1/ssh/targets', { body: { ...target, name: target.name.trim(), host: target.host.trim(), username: target.username.trim(), port: Number(port), ...secret } }), 'POST /api/v1/ssh/targets');
    setDraft(EMPTY);
    reload();
  });
  const remove = useAction(async (id: string) => {
    await bareOf(svc.api.DELETE('/api/v1/ssh/targets/{id}', { params: { path: { id } } }), 'DELETE /api/v1/ssh/targets/{id}');
    if (verifying === id) setVerifying(undefined);
    reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value });
  const target = data?.find((t) => t.id === verifying);
  return (
    <section>
      <h1>SSH targets</h1>
      <p className="muted">Servers your packs may run commands on, with your credential. A pack reaches a target only once you have trusted its host key.</p>
      <ErrorNote error={create.error ?? remove.error ?? error} />
      {data && data.length === 0 && <p>No targets.</p>}
      {data && data.length > 0 && (
        <Table label="SSH targets" columns={['Name', 'Address', 'Host key', '']}>
          {data.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td className="code">
                {t.username}@{t.host}:{t.port}
              </td>
              <td>{t.known_hosts ? 'trusted' : 'not trusted yet'}</td>
              <td className="row">
                <button type="button" onClick={() => setVerifying(t.id)} aria-label={`Verify ${t.name}`}>
                  Verify
                </button>
                <button type="button" className="danger" onClick={() => void remove.run(t.id)} aria-label={`Remove ${t.name}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {target && <Verify key={target.id} id={target.id} name={target.name} onTrusted={reload} />}
      <h2>Register a target</h2>
      <form onSubmit={submit} aria-label="Register a target">
        <Field label="Target name" required value={draft.name} onChange={set('name')} />
        <div className="row">
          <Field label="Host" required value={draft.host} onChange={set('host')} />
          <Field label="Port" type="number" min={1} max={65535} required value={draft.port} onChange={set('port')} />
          <Field label="Username" required autoComplete="off" value={draft.username} onChange={set('username')} />
        </div>
        <div className="field">
          <label htmlFor={`${keyId}-method`}>Sign in with</label>
          <select id={`${keyId}-method`} value={draft.auth_method} onChange={set('auth_method')}>
            <option value="key">a private key</option>
            <option value="password">a password</option>
          </select>
        </div>
        {draft.auth_method === 'key' ? (
          <div className="field">
            <label htmlFor={`${keyId}-key`}>Private key</label>
            <textarea id={`${keyId}-key`} required rows={6} spellCheck={false} autoComplete="off" value={draft.credential} onChange={set('credential')} />
          </div>
        ) : (
          <Field label="Password" type="password" required autoComplete="off" value={draft.credential} onChange={set('credential')} />
        )}
        <button type="submit" disabled={create.pending}>
          Register target
        </button>
      </form>
    </section>
  );
}

/**
 * Trust on first use: the platform connects and answers the host key's fingerprint, which the
 * person compares with the server's own; the API stores a known_hosts line, not a fingerprint,
 * so the person pastes the line and the page trusts it only if its key has that fingerprint.
 */
function Verify({ id, name, onTrusted }: { id: string; name: string; onTrusted: () => void }) {
  const path = { params: { path: { id } } };
  const verified = useLoad(() => bareOf(svc.api.POST('/api/v1/ssh/targets/{id}/verify', path), 'POST /api/v1/ssh/targets/{id}/verify'));
  const [line, setLine] = useState('');
  const [lineFingerprint, setLineFingerprint] = useState<string | undefined>(undefined);
  const [trusted, setTrusted] = useState(false);
  const lineId = useId();
  useEffect(() => {
    let live = true;
    void fingerprintOfLine(line).then((f) => live && setLineFingerprint(f));
    return () => {
      live = false;
    };
  }, [line]);
  const trust = useAction(async () => {
    await bareOf(svc.api.PUT('/api/v1/ssh/targets/{id}', { ...path, body: { known_hosts: line.trim() } }), 'PUT /api/v1/ssh/targets/{id}');
    setTrusted(true);
    onTrusted();
  });
  const fingerprint = verified.data?.fingerprint;
  const matches = Boolean(fingerprint && lineFingerprint === fingerprint);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void trust.run();
  };
  return (
    <section aria-label={`Verify ${name}`} className="shown-once">
      <h2>Verify {name}</h2>
      <ErrorNote error={verified.error ?? trust.error} />
      {!verified.data && !verified.error && <p role="status">Connecting…</p>}
      {verified.data && (
        <>
          <p role="status">{verified.data.connected ? 'Connected: the credential was accepted.' : 'The host answered, but refused the credential.'}</p>
          <p>
            Its host key's fingerprint: <span className="secret" data-testid="fingerprint">{fingerprint}</span>
          </p>
          <p className="muted">
            Compare it with the server's own (<code>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</code> on it), then paste the key's known_hosts line (<code>ssh-keyscan</code> prints it).
          </p>
          {trusted ? (
            <p role="status">Trusted.</p>
          ) : (
            <form onSubmit={submit}>
              <div className="field">
                <label htmlFor={lineId}>known_hosts line</label>
                <textarea id={lineId} required rows={2} spellCheck={false} value={line} onChange={(e) => setLine(e.target.value)} aria-describedby={`${lineId}-match`} />
                <small id={`${lineId}-match`} className="hint">
                  {!line.trim() ? '' : matches ? 'Its key has this fingerprint.' : `Its key's fingerprint is ${lineFingerprint ?? 'unknown'}: not the one the host showed.`}
                </small>
              </div>
              <button type="submit" disabled={!matches || trust.pending}>
                Trust this key
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}
