import { z } from 'zod';

/**
 * Pieces the answers of every service are made of. A schema named with `.meta({ id })` is a
 * component of the public OpenAPI document under that name (the SDKs' type names), so a name
 * must stay stable once clients use it.
 */

/** A moment as services answer it: ISO 8601, from `Date.toISOString()`. */
export const Timestamp = z.iso.datetime({ offset: true });

/** The answer of a delete. */
export const Deleted = z.object({ deleted: z.literal(true) });
