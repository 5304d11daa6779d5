import { AppError, IntegrationError, ServiceUnavailableError, TimeoutError, appErrorFrom } from '@svc/core';
import type { ErrorDetails, Logger } from '@svc/core';
import type { BusMessage, RequestHandler, RetryPolicy } from './bus.js';
import { errorText } from './async.js';

interface SerializedAppError {
  status: number;
  code: string;
  type: string;
  message: string;
  details: ErrorDetails;
}

/**
 * What a responder sends back. `error: null` stands for a failure that is not an AppError:
 * its message and stack stay in the responder's log, the requester learns only that it failed.
 */
type RpcReply = { ok: true; result?: unknown } | { ok: false; error: SerializedAppError | null };

/** Runs a responder's handler and serialises the outcome; never throws. */
export async function answerRequest(
  queue: string,
  handler: RequestHandler,
  message: BusMessage,
  log: Logger,
  retry?: RetryPolicy,
): Promise<string> {
  try {
    return encodeReply({ ok: true, result: await handler(message.payload, message) });
  } catch (thrown) {
    // A failure that passes is the requester's to try again: SERVICE_UNAVAILABLE, not a 502.
    const err = retry?.when(thrown) ? new ServiceUnavailableError(`${queue} cannot answer now; try again shortly`, { queue }) : thrown;
    if (err instanceof AppError) {
      const { status, code, type, message: text, details } = err;
      return encodeReply({ ok: false, error: { status, code, type, message: text, details } });
    }
    log.error('bus responder failed', { queue, message_id: message.messageId, error: errorText(err) });
    return encodeReply({ ok: false, error: null });
  }
}

/** The reply to a request that could not even be read. */
export function failedReply(): string {
  return encodeReply({ ok: false, error: null });
}

function encodeReply(reply: RpcReply): string {
  try {
    return JSON.stringify(reply);
  } catch {
    // An unserialisable result or error detail is the responder's bug; the requester sees a failure.
    return JSON.stringify({ ok: false, error: null });
  }
}

/** Turns a reply body back into the result, or throws the responder's AppError. */
export function readReply(queue: string, body: string): unknown {
  const failed = () => new IntegrationError(`${queue} failed`, { queue });
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    throw failed();
  }
  if (!isRecord(reply)) throw failed();
  if (reply.ok === true) return reply.result;
  const error = reply.error;
  if (isRecord(error) && typeof error.status === 'number' && typeof error.code === 'string' && typeof error.message === 'string') {
    throw appErrorFrom({
      status: error.status,
      code: error.code,
      message: error.message,
      type: typeof error.type === 'string' ? error.type : undefined,
      details: isRecord(error.details) ? error.details : {},
    });
  }
  throw failed();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Pending {
  queue: string;
  /** Whatever the reply depends on (the AMQP connection), so its loss can fail the request early. */
  owner: unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
}

/** Requests waiting for their reply, keyed by the id the reply carries back. */
export class PendingRequests {
  private readonly pending = new Map<string, Pending>();

  wait(id: string, queue: string, timeoutMs: number, owner?: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new TimeoutError(`${queue} did not answer within ${timeoutMs} ms`, { queue, timeout_ms: timeoutMs }));
      }, timeoutMs);
      this.pending.set(id, { queue, owner, resolve, reject, timer });
    });
  }

  /** Settles the request `id` with a reply body; a late or unknown reply is ignored. */
  reply(id: string, body: string): void {
    const entry = this.take(id);
    if (!entry) return;
    try {
      entry.resolve(readReply(entry.queue, body));
    } catch (err) {
      entry.reject(err);
    }
  }

  fail(id: string, err: unknown): void {
    this.take(id)?.reject(err);
  }

  /** Fails every request (of `owner`, when given). */
  failAll(errorFor: (queue: string) => unknown, owner?: unknown): void {
    for (const [id, entry] of this.pending) {
      if (owner === undefined || entry.owner === owner) this.fail(id, errorFor(entry.queue));
    }
  }

  private take(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    return entry;
  }
}
