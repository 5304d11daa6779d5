import { z } from 'zod';

declare const ephemeralBase: unique symbol;

/**
 * The name of a per-process queue for the messages of `B` (`~<B>.<uuid>`, made by
 * `ephemeralQueueName` of `@svc/bus`): branded, so that a message sent to it must be one of `B`'s.
 */
export type EphemeralQueue<B extends string> = string & { readonly [ephemeralBase]: B };

/** The queue of `B` whose name a message carries (a job's `reply_to`). */
export function ephemeralQueueOf<B extends string>(base: B) {
  return z
    .string()
    .startsWith(`~${base}.`, `must be a queue of ${base}`)
    .transform((name) => name as EphemeralQueue<B>);
}
