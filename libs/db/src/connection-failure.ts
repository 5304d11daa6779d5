/** Node's socket errors that mean the server could not be reached or went away. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server shutting down or not yet accepting (57P01-57P03); class 08 is connection exceptions. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03']);
/** What node-postgres and its pool say, without a code, when a connection dies or cannot be had. */
const DRIVER_MESSAGES = /Connection terminated|connection error|timeout exceeded when trying to connect/i;

/**
 * True when `err` (or an error it wraps as `cause`, as drizzle does) says the database could not
 * be reached, rather than that a statement failed: worth trying again once it is back.
 *
 * @example
 *   const bus = await createBus({ amqpUrl, retry: { when: isConnectionFailure, delayMs: 2000 } });
 */
export function isConnectionFailure(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_GONE.has(code) || /^08/.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  }
  return false;
}
