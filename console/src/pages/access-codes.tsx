import { useState, type FormEvent } from 'react';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { ShownOnce } from '../ui/shown-once.js';
import { TierSelect, type Tier } from '../ui/tier-select.js';
import { Table } from '../ui/table.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

/** The list names a code by its first group only: the literal is shown once, when minted. */
const masked = (code: string | null) => (code ? `${code.split('-').slice(0, 2).join('-')}-…` : 'comp code');

/** Access codes: mint (the literals shown once), list with their uses, deactivate. */
export function AccessCodes() {
  const { data, error, reload } = useLoad(() => dataOf(svc.api.GET('/api/v1/access-codes', {})));
  const [form, setForm] = useState({ tier: 'free' as Tier, cohort: '', count: '1', max_uses: '1' });
  const [minted, setMinted] = useState<string[] | undefined>(undefined);
  const mint = useAction(async () => {
    const body = { tier: form.tier, cohort: form.cohort.trim(), count: Number(form.count), max_uses: Number(form.max_uses) };
    setMinted((await dataOf(svc.api.POST('/api/v1/access-codes', { body }))).codes);
    reload();
  });
  const deactivate = useAction(async (codeId: string) => {
    await dataOf(svc.api.DELETE('/api/v1/access-codes/{code_id}', { params: { path: { code_id: codeId } } }));
    reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void mint.run();
  };
  return (
    <section aria-labelledby="codes-heading">
      <h2 id="codes-heading">Access codes</h2>
      <form className="row" onSubmit={submit} aria-label="Mint access codes">
        <TierSelect label="Tier" value={form.tier} onChange={(tier: Tier) => setForm({ ...form, tier })} />
        <Field label="Cohort" required placeholder="partner" value={form.cohort} onChange={(e) => setForm({ ...form, cohort: e.target.value })} />
        <Field label="How many" type="number" min={1} max={100} required value={form.count} onChange={(e) => setForm({ ...form, count: e.target.value })} />
        <Field label="Uses each" type="number" min={1} required value={form.max_uses} onChange={(e) => setForm({ ...form, max_uses: e.target.value })} />
        <button type="submit" disabled={mint.pending}>
          Mint
        </button>
      </form>
      <ErrorNote error={mint.error ?? deactivate.error ?? error} />
      {minted && <ShownOnce label={minted.length === 1 ? 'New access code' : `${minted.length} new access codes`} value={minted.join('\n')} />}
      {data && (
        <Table label="Access codes" columns={['Code', 'Tier', 'Cohort', 'Uses', 'Created', 'Status', '']}>
          {data.map((code) => (
            <tr key={code.id}>
              <td className="code">{masked(code.code)}</td>
              <td>{code.tier}</td>
              <td>{code.cohort}</td>
              <td>
                {code.use_count} / {code.max_uses}
              </td>
              <td>{new Date(code.created_at).toLocaleString()}</td>
              <td>{code.is_active ? 'active' : 'deactivated'}</td>
              <td>
                {code.is_active && (
                  <button type="button" className="danger" onClick={() => void deactivate.run(code.id)} aria-label={`Deactivate ${masked(code.code)} (${code.cohort})`}>
                    Deactivate
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
