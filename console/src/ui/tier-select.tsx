import { useId } from 'react';

/** The platform's tiers, as access codes and accounts name them. */
export const TIERS = ['free', 'developer_preview', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** A labelled choice of tier; `any` adds an empty first choice named so (a filter). */
export function TierSelect<T extends string>({ label, value, onChange, any }: { label: string; value: T; onChange: (tier: T) => void; any?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {any !== undefined && <option value="">{any}</option>}
        {TIERS.map((tier) => (
          <option key={tier}>{tier}</option>
        ))}
      </select>
    </div>
  );
}
