import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { AppError, InternalError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from './errors.js';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';
import { errorBody } from './envelope.js';
import { acceptCorrelationId, REQUEST_ID_HEADER } from './correlation.js';
import type { Logger } from './logger.js';

/** Largest JSON body any endpoint accepts. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Refuses a JSON body nested deeper than MAX_JSON_DEPTH before it is parsed (400). */
function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  if (!jsonNestedDeeperThan(body)) return;
  throw new ValidationError(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`, { limit_depth: MAX_JSON_DEPTH });
}

/**
 * JSON body parsing with the fleet's rules: a body must be declared `application/json`
 * (415 otherwise), be at most 1 MiB (413), nest at most MAX_JSON_DEPTH levels (400) and be
 * well-formed (400). `multipart/form-data` is
 * left unread for the upload routes that parse it themselves (multer, with their own limits);
 * any other route finds no body and refuses the request with its schema (400).
 */
export function jsonBody(): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req) || req.is(['application/json', 'multipart/form-data'])) return next();
    next(new UnsupportedMediaTypeError('Request body must be application/json', { content_type: req.headers['content-type'] ?? null }));
  };
  return [requireJson, express.json({ limit: JSON_BODY_LIMIT_BYTES, strict: false, verify: refuseDeepJson })];
}

/**
 * What JSON.parse found wrong, without the piece of the body V8 quotes in some of its messages
 * (`Unexpected token 'h', "{"value":hunter2}" is not valid JSON`): that piece may be the
 * password or secret the body was carrying. The other messages name a position only.
 */
function jsonIssue(message: string): string {
  return message.endsWith(' is not valid JSON') ? 'Unexpected token in JSON' : message;
}

/** Turns body-parser and path-decoding failures into AppErrors; passes anything else through. */
function fromBodyParser(err: unknown): AppError | undefined {
  // The router throws a URIError for a path parameter with malformed percent-encoding.
  if (err instanceof URIError) return new ValidationError('Malformed percent-encoding in the path', { issue: err.message });
  const type = (err as { type?: string } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new ValidationError('Malformed JSON body', { issue: jsonIssue((err as Error).message) });
    case 'entity.too.large':
      return new PayloadTooLargeError(`Request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes`, { limit_bytes: JSON_BODY_LIMIT_BYTES });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError((err as Error).message);
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ValidationError((err as Error).message);
    default:
      return clientFault(err);
  }
}

/**
 * Any other failure body-parser blames on the request (a 4xx it marks as safe to show): a
 * body that does not decode as its `Content-Encoding` says (`gzip`, `deflate`, `br` over plain
 * text), for one.
 */
function clientFault(err: unknown): AppError | undefined {
  const { status, expose, message } = (err ?? {}) as { status?: unknown; expose?: unknown; message?: unknown };
  if (expose !== true || typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const text = typeof message === 'string' ? message : 'Malformed request body';
  if (status === 413) return new PayloadTooLargeError(text, { limit_bytes: JSON_BODY_LIMIT_BYTES });
  if (status === 415) return new UnsupportedMediaTypeError(text);
  return new ValidationError(`The request body could not be read: ${text}`, { issue: text });
}

/**
 * Refuses a URL that carries the NUL character (`%00`) in its path or query, before any route
 * reads it: no identifier or search term contains one, and Postgres cannot hold it in text.
 */
export function refuseNulInUrl(): RequestHandler {
  return (req, _res, next) => {
    if (!req.url.includes('%00')) return next();
    next(new ValidationError('The URL must not contain %00 (the NUL character)', { issue: 'contains %00' }));
  };
}

export function correlationOf(req: express.Request): string {
  return acceptCorrelationId(req.headers[REQUEST_ID_HEADER]);
}

/** The one error middleware: AppErrors become the spec's body, anything else a logged 500. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const correlationId = correlationOf(req);
    let appError = err instanceof AppError ? err : fromBodyParser(err);
    if (!appError) {
      log.error('unhandled error', { correlation_id: correlationId, error: err instanceof Error ? err.stack : String(err) });
      appError = new InternalError('Internal server error');
    }
    if (res.headersSent) return res.end();
    // A refusal that knows when to try again says so where clients look (a 429, a 503).
    const retryAfter = appError.details.retry_after;
    if ((appError.status === 429 || appError.status === 503) && typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
    res.status(appError.status).json(errorBody(appError, correlationId));
  };
}

/** JSON 404 in the error format for paths nobody serves. */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => next(new NotFoundError(`No route for ${req.method} ${req.path}`, { method: req.method, path: req.path }));
}
