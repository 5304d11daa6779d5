import { useState, type FormEvent } from 'react';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { dayEnd } from '../ui/day-bounds.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { ShownOnce } from '../ui/shown-once.js';
import { TierSelect, type Tier } from '../ui/tier-select.js';
import { useAction } from '../ui/use-action.js';

/** Mints one comp code on a user's behalf (to pass on); its literal is shown this once. */
export function CompCode({ userId }: { userId: string }) {
  const [form, setForm] = useState({ tier: 'pro' as Tier, max_uses: '1', expires: '' });
  const [code, setCode] = useState<string | undefined>(undefined);
  const mint = useAction(async () => {
    const body = { kind: 'comp' as const, tier: form.tier, max_uses: Number(form.max_uses), expires_at: dayEnd(form.expires) };
    setCode((await dataOf(svc.api.POST('/api/v1/admin/users/{id}/access-codes', { params: { path: { id: userId } }, body }))).code);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void mint.run();
  };
  return (
    <section aria-labelledby="comp-heading">
      <h2 id="comp-heading">Comp code</h2>
      <form className="row" onSubmit={submit} aria-label="Mint a comp code">
        <TierSelect label="Code tier" value={form.tier} onChange={(tier: Tier) => setForm({ ...form, tier })} />
        <Field label="Uses" type="number" min={1} max={1000} required value={form.max_uses} onChange={(e) => setForm({ ...form, max_uses: e.target.value })} />
        <Field label="Valid through" type="date" hint="Optional; through the end of that day (UTC)" value={form.expires} onChange={(e) => setForm({ ...form, expires: e.target.value })} />
        <button type="submit" disabled={mint.pending}>
          Mint comp code
        </button>
      </form>
      <ErrorNote error={mint.error} />
      {code && <ShownOnce label="New comp code" value={code} />}
    </section>
  );
}
