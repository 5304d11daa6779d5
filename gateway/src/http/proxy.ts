import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { INTERNAL_IDENTITY_HEADER, type Identity } from '@svc/auth';
import { errorBody, ServiceUnavailableError, type Logger, REQUEST_ID_HEADER } from '@svc/core';

/** Kept-alive connections to each service: a new TCP handshake per request costs more than the hop. */
const agent = new Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 10_000 });

/**
 * Forwards a request to one service unchanged, with the gateway-signed identity (or none)
 * replacing whatever a client put in the internal header.
 */
export function forwardTo(service: string, target: string, sign: (identity: Identity) => string, log: Logger): RequestHandler {
  return createProxyMiddleware<IncomingMessage & { identity?: Identity }, ServerResponse>({
    target,
    agent,
    xfwd: true,
    proxyTimeout: 120_000,
    on: {
      proxyReq(proxyReq, req) {
        proxyReq.removeHeader(INTERNAL_IDENTITY_HEADER);
        if (req.identity) proxyReq.setHeader(INTERNAL_IDENTITY_HEADER, sign(req.identity));
      },
      error(err, req, res) {
        const correlationId = String(req.headers[REQUEST_ID_HEADER] ?? '');
        log.error('service unreachable', { service, error: err.message, correlation_id: correlationId });
        if (!('writeHead' in res)) return (res as Socket).destroy();
        if (res.headersSent) return res.end();
        const body = errorBody(new ServiceUnavailableError(`The ${service} service is unavailable`, { service }), correlationId);
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      },
    },
  }) as unknown as RequestHandler;
}
