import { SvcError } from '@svc/client';

/** What went wrong, in words a person can act on, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof SvcError ? error.code : undefined;
  return (
    <p role="alert" className="error">
      {message}
      {code && <span className="code"> ({code})</span>}
    </p>
  );
}
