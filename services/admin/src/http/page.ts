import { ValidationError } from '@svc/core';

/**
 * Opaque page cursors: the sort key of the last row of a page, base64url-encoded. What a client
 * sends back is decoded and checked; anything else is a 400 naming `cursor`.
 */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const when = new Date(typeof at === 'string' ? at : Number.NaN);
    if (typeof id === 'string' && id.length > 0 && id.length <= 64 && !Number.isNaN(when.getTime())) return { at: when, id };
  } catch {
    // Falls through to the one answer for every malformed cursor.
  }
  throw invalidCursor();
}

/** The one answer for every cursor this endpoint did not answer. */
export function invalidCursor(): InstanceType<typeof ValidationError> {
  return new ValidationError('Invalid cursor', { field: 'cursor', reason: 'not a cursor this endpoint answered' });
}
