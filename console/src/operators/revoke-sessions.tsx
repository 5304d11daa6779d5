import { useEffect, useRef, useState } from 'react';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { useAction } from '../ui/use-action.js';

/** Ends every session of one user, after the operator confirms it: they must sign in again everywhere. */
export function RevokeSessions({ userId, email }: { userId: string; email: string }) {
  const [confirming, setConfirming] = useState(false);
  const [ended, setEnded] = useState<number | undefined>(undefined);
  const confirm = useRef<HTMLButtonElement>(null);
  const revoke = useAction(async () => {
    const done = await dataOf(svc.api.POST('/api/v1/admin/users/{id}/sessions/revoke', { params: { path: { id: userId } } }));
    setEnded(done.revoked_sessions);
    setConfirming(false);
  });
  // The question takes focus, so that a keyboard user answers it next.
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {confirming ? (
        <div role="group" aria-label="Confirm revoking sessions" className="notice">
          <p>
            End every session of {email}? They are signed out everywhere, at once, and must sign in again.
          </p>
          <p className="row">
            <button ref={confirm} type="button" className="danger" onClick={() => void revoke.run()} disabled={revoke.pending}>
              Revoke all sessions
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </p>
        </div>
      ) : (
        <button type="button" className="danger" onClick={() => {
          setEnded(undefined);
          setConfirming(true);
        }}>
          Revoke sessions…
        </button>
      )}
      <ErrorNote error={revoke.error} />
      {ended !== undefined && <p role="status">{ended === 1 ? '1 session ended.' : `${ended} sessions ended.`}</p>}
    </section>
  );
}
