import { useState } from 'react';

/**
 * A secret the platform shows this once (an API key, an access code): selectable text, a copy
 * button, and the warning that it will not be shown again.
 */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<boolean | undefined>(undefined);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div role="region" aria-label={label} className="shown-once">
      <p>
        <strong>{label}</strong>: copy it now, it is not shown again.
      </p>
      <p className="secret" data-testid="secret">
        {value}
      </p>
      <button type="button" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span role="status" className="muted">
        {copied === false ? ' Copying was refused: select the text and copy it.' : ''}
      </span>
    </div>
  );
}
