import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Pool } from 'undici';
import { INTERNAL_IDENTITY_HEADER, type Identity } from '@svc/auth';
import { errorBody, ServiceUnavailableError, type Logger, REQUEST_ID_HEADER } from '@svc/core';
import { injectTrace, TRACE_HEADERS } from '@svc/tracing';

/** How long a service may take to start its answer, and then between two chunks of it. */
const SERVICE_TIMEOUT_MS = 120_000;

/** Connections kept to each service. */
const CONNECTIONS_PER_SERVICE = 512;

/**
 * Headers that belong to one connection (RFC 9110 §7.6.1), and `expect`: Node's server has
 * already answered `100-continue` to the client, and undici refuses the header.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

/** What a client may not say to a service: who it is (the gateway signs that) and which trace it is part of. */
const GATEWAY_SAYS = new Set<string>([INTERNAL_IDENTITY_HEADER, ...TRACE_HEADERS]);

/**
 * The client's headers for the service: hop-by-hop ones (and any the client's `Connection`
 * names), the client's internal identity and trace headers dropped, the gateway's own added
 * (identity, and the request's span as `traceparent` when the gateway traces),
 * `X-Forwarded-*` appended to.
 */
function outgoingHeaders(req: IncomingMessage, identityToken: string | undefined): Record<string, string | string[]> {
  const named = req.headers.connection?.toLowerCase().split(',').map((name) => name.trim());
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || GATEWAY_SAYS.has(name) || named?.includes(name)) continue;
    headers[name] = value;
  }
  if (identityToken) headers[INTERNAL_IDENTITY_HEADER] = identityToken;
  injectTrace(headers);
  const append = (name: string, value: string) => {
    const before = req.headers[name];
    headers[name] = before ? `${String(before)},${value}` : value;
  };
  append('x-forwarded-for', req.socket.remoteAddress ?? '');
  append('x-forwarded-port', String(req.socket.localPort ?? ''));
  append('x-forwarded-proto', 'http');
  return headers;
}

/** The service's headers for the client, without those of the gateway's connection to it. */
function incomingHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/**
 * The client's body as undici is given it. undici destroys the body it was sending when the
 * service answers before reading all of it. Were that the client's request, Node would cut the
 * client's connection (it destroys the socket of an unfinished request) and the client would
 * meet a reset in place of the answer; and a body left unread would stall the connection until
 * its timeout. So undici gets a stream of its own, and whatever the service did not take is read
 * off and dropped, as Node does with a body no handler reads, leaving the connection usable.
 */
function bodyOf(req: IncomingMessage): PassThrough {
  const body = req.pipe(new PassThrough());
  body.once('close', () => {
    req.unpipe(body);
    req.resume();
  });
  return body;
}

/** A request has a body when it says how long it is or that it comes in chunks. */
const hasBody = (req: IncomingMessage) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

export interface Forwarder {
  handle: RequestHandler;
  /** Closes the kept connections; requests in flight finish first. */
  close(): Promise<void>;
}

/**
 * Forwards requests to one service unchanged, with the gateway-signed identity (or none)
 * replacing whatever a client put in the internal header. undici keeps the connections to the
 * service and streams its answer straight into the client's response; a client that leaves
 * cancels the request to the service. undici is loaded by the first forwarder made, not with the
 * gateway: the standalone hands every request over in its own process and never needs it (its
 * modules, 1.1 MB of source, stay out of that process: BENCHMARKS.md, twentieth round).
 */
export function forwardTo(service: string, target: string, sign: (identity: Identity) => string, log: Logger): Forwarder {
  let pool: Pool | undefined;
  const opened = import('undici').then(({ Pool }) => (pool = new Pool(target, { connections: CONNECTIONS_PER_SERVICE, headersTimeout: SERVICE_TIMEOUT_MS, bodyTimeout: SERVICE_TIMEOUT_MS })));
  const send = (to: Pool, req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]) => {
    const { identity } = req as typeof req & { identity?: Identity };
    const cancel = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) cancel.abort();
    };
    res.once('close', onClose);
    to.stream(
      {
        path: req.originalUrl,
        method: req.method as 'GET',
        headers: outgoingHeaders(req, identity && sign(identity)),
        body: hasBody(req) ? bodyOf(req) : null,
        signal: cancel.signal,
      },
      ({ statusCode, headers }) => {
        res.writeHead(statusCode, incomingHeaders(headers as IncomingHttpHeaders));
        return res;
      },
      (err) => {
        res.off('close', onClose);
        if (err) unreachable(service, err, req, res, log);
      },
    );
  };
  // Only the requests that come in while undici loads wait for it.
  const handle: RequestHandler = (req, res) => {
    if (pool) return send(pool, req, res);
    opened.then(
      (ready) => send(ready, req, res),
      (err: Error) => unreachable(service, err, req, res, log),
    );
  };
  return { handle, close: () => opened.then((ready) => ready.close()) };
}

/** 503 in the error format, or a cut connection once the service's answer has begun. */
function unreachable(service: string, err: Error, req: IncomingMessage, res: ServerResponse, log: Logger): void {
  if (res.destroyed) return; // the client left: there is no one to tell
  const correlationId = String(req.headers[REQUEST_ID_HEADER] ?? '');
  log.error('service unreachable', { service, error: err.message, correlation_id: correlationId });
  if (res.headersSent) return void res.destroy();
  const body = errorBody(new ServiceUnavailableError(`The ${service} service is unavailable`, { service }), correlationId);
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
