import { useCallback, useState } from 'react';

/** An async action a person starts (a form, a button): whether it is running, and its error. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(
    async (...args: A) => {
      setPending(true);
      setError(undefined);
      try {
        await action(...args);
      } catch (err) {
        setError(err);
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending, error };
}
