import { useState } from 'react';
import { useAction } from './use-action.js';
import { useLoad } from './use-load.js';

/** One page of a list and the cursor of the next (null on the last). */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/**
 * A list the API answers a page at a time, newest first: the first page on mount and whenever
 * `deps` change; `more` appends the next page while there is one.
 */
export function usePages<T>(load: (cursor?: string) => Promise<Page<T>>, deps: unknown[]) {
  const [later, setLater] = useState<Page<T> | undefined>(undefined);
  const first = useLoad(async () => {
    setLater(undefined);
    return load();
  }, deps);
  const next = later ? later.next : (first.data?.next ?? null);
  const more = useAction(async () => {
    const page = await load(next!);
    setLater({ items: [...(later?.items ?? []), ...page.items], next: page.next });
  });
  const items = first.data ? [...first.data.items, ...(later?.items ?? [])] : undefined;
  return { items, error: first.error ?? more.error, hasMore: next !== null, more: () => void more.run(), loadingMore: more.pending, reload: first.reload };
}
