import { useState, type FormEvent } from 'react';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { TierSelect, type Tier } from '../ui/tier-select.js';
import { useAction } from '../ui/use-action.js';

/** An operator's change of one user's tier, always with the reason (kept in the audit log; the user is e-mailed). */
export function TierChange({ userId, tier, onChanged }: { userId: string; tier: string; onChanged: () => void }) {
  const [form, setForm] = useState({ tier: tier as Tier, reason: '' });
  const [done, setDone] = useState<{ tier: string; previous_tier: string; email_requested: boolean } | undefined>(undefined);
  const change = useAction(async () => {
    const body = { tier: form.tier, reason: form.reason.trim() };
    setDone(await dataOf(svc.api.POST('/api/v1/admin/users/{id}/tier', { params: { path: { id: userId } }, body })));
    setForm({ ...form, reason: '' });
    onChanged();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(undefined);
    void change.run();
  };
  return (
    <section aria-labelledby="tier-heading">
      <h2 id="tier-heading">Change the tier</h2>
      <form className="row" onSubmit={submit} aria-label="Change the tier">
        <TierSelect label="New tier" value={form.tier} onChange={(next: Tier) => setForm({ ...form, tier: next })} />
        <Field label="Reason" hint="Kept in the audit log" required maxLength={500} value={form.reason} onChange={(e) => setForm({ ...form, reason: e.target.value })} />
        <button type="submit" disabled={change.pending}>
          Change tier
        </button>
      </form>
      <ErrorNote error={change.error} />
      {done && (
        <p role="status">
          Tier changed from {done.previous_tier} to {done.tier}
          {done.email_requested ? '; the user is told by e-mail.' : '; the notification e-mail could not be requested.'}
        </p>
      )}
    </section>
  );
}
