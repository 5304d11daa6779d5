import { useEffect, useState } from 'react';
import { dataOf } from '@svc/client';
import { svc } from './svc.js';

/** How often the return page asks whether the payment has arrived. */
const POLL_MS = 2000;

export type PaidSession = { status: 'pending' } | { status: 'ready'; code: string; email: string } | { status: 'expired' | 'disputed' };

/**
 * The paid registration the processor sent the buyer back from (`/register?session_id=…`,
 * billing's return URL): asked again until its code is ready, or it ended another way.
 */
export function usePaidSession(sessionId: string | null): { session?: PaidSession; error?: unknown } {
  const [state, setState] = useState<{ session?: PaidSession; error?: unknown }>({});
  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const session = (await dataOf(svc.api.GET('/api/v1/registration/session/{session_id}', { params: { path: { session_id: sessionId } } }))) as PaidSession;
        if (!live) return;
        setState({ session });
        if (session.status === 'pending') timer = setTimeout(ask, POLL_MS);
      } catch (error) {
        if (live) setState({ error });
      }
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionId]);
  return state;
}

/** Starts a paid registration: the processor's checkout page, which comes back to `/register?session_id=…`. */
export async function buyAccessCode(): Promise<void> {
  const { checkout_url } = await dataOf(svc.api.POST('/api/v1/registration/checkout', { body: {} }));
  window.location.assign(checkout_url);
}
