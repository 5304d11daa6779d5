import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const store = new AsyncLocalStorage<{ correlationId: string }>();

/** The correlation id of the work in progress, if any. */
export function currentCorrelationId(): string | undefined {
  return store.getStore()?.correlationId;
}

/** Runs `fn` with `correlationId` visible to the logger and to outgoing calls. */
export function withCorrelationId<T>(correlationId: string, fn: () => T): T {
  return store.run({ correlationId }, fn);
}

/** A client's id is kept when it is a sane token; anything else gets a fresh one. */
export function acceptCorrelationId(candidate: unknown): string {
  return typeof candidate === 'string' && ACCEPTED_ID.test(candidate) ? candidate : randomUUID();
}

/**
 * Accepts `X-Request-Id` or generates one, echoes it on the response and makes it the
 * correlation id of everything done for this request. A request the gateway hands to a
 * service in the same process (the standalone) arrives with both done: it goes on as it is,
 * since entering the same context again would only cost time.
 */
export function correlationMiddleware(): RequestHandler {
  return (req, res, next) => {
    const given = req.headers[REQUEST_ID_HEADER];
    if (given !== undefined && given === currentCorrelationId()) return next();
    const id = acceptCorrelationId(given);
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader('X-Request-Id', id);
    withCorrelationId(id, next);
  };
}
