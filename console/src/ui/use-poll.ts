import { useEffect, useState } from 'react';

/** Waits between asks: the first, then half as long again each time, up to the longest. */
export interface PollPace {
  firstMs: number;
  maxMs: number;
}

/**
 * Data a page waits on: `load` asked on mount and again after a growing pause until `done`
 * holds or it fails; its last answer or error. The pause grows so that a wait costs a handful of
 * requests a minute, whatever the person's tier allows.
 */
export function usePoll<T>(load: () => Promise<T>, done: (value: T) => boolean, pace: PollPace): { data?: T; error?: unknown } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (pauseMs: number) => {
      try {
        const data = await load();
        if (!live) return;
        setState({ data });
        if (!done(data)) timer = setTimeout(() => void ask(Math.min(pace.maxMs, pauseMs * 1.5)), pauseMs);
      } catch (error) {
        if (live) setState({ error });
      }
    };
    void ask(pace.firstMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  return state;
}
