import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

/** The packs installed in the caller's tenant: install one by name, uninstall. */
export function Packs() {
  const { data, error, reload } = useLoad(() => svc.packs.list());
  const [name, setName] = useState('');
  const [version, setVersion] = useState('latest');
  const install = useAction(async () => {
    await svc.packs.install(name.trim(), version.trim() || 'latest');
    setName('');
    reload();
  });
  const uninstall = useAction(async (id: string) => {
    await svc.packs.uninstall(id);
    reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void install.run();
  };
  return (
    <section>
      <h1>Installed packs</h1>
      <form className="row" onSubmit={submit} aria-label="Install a pack">
        <Field label="Pack" placeholder="@acme/tools" required value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Version" value={version} onChange={(e) => setVersion(e.target.value)} />
        <button type="submit" disabled={install.pending}>
          Install
        </button>
      </form>
      <ErrorNote error={install.error ?? uninstall.error ?? error} />
      {data && data.packs.length === 0 && <p>No packs installed.</p>}
      {data && data.packs.length > 0 && (
        <Table label="Installed packs" columns={['Pack', 'Version', 'Commands', 'Status', '']}>
          {data.packs.map((pack) => (
            <tr key={pack.id}>
              <td>
                <Link to={`${CONSOLE_PATHS.commands}?namespace=${encodeURIComponent(pack.namespace)}`}>
                  @{pack.namespace}/{pack.name}
                </Link>
              </td>
              <td>
                {pack.version}
                {pack.pinned ? ' (pinned)' : ''}
              </td>
              <td>{pack.commands}</td>
              <td>{pack.status}</td>
              <td>
                <button type="button" className="danger" onClick={() => void uninstall.run(pack.id)} aria-label={`Uninstall @${pack.namespace}/${pack.name}`}>
                  Uninstall
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
