import { useCallback, useEffect, useState } from 'react';

/** Data a page shows: loaded on mount and whenever `reload` is called; its error if it failed. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && (setData(value), setError(undefined)),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [round, ...deps]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, error, reload };
}
