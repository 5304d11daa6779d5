import type { Request, RequestHandler, Response } from 'express';
import { SpanKind, tracingApi } from './state.js';

export interface HttpTracingOptions {
  /** The route pattern to name the span by, read once the answer is sent (the metrics' labeller). */
  routeOf: (req: Request, res: Response) => string;
  /**
   * Whether the request's `traceparent` is its parent: a service's, whose requests come from the
   * gateway. The public door's is not (`false`): every request starts a trace of its own, so that
   * nobody outside decides what is sampled or joins their trace to another caller's (the
   * forwarder replaces the client's header with the gateway's).
   */
  continueTrace: boolean;
}

/** OTLP's ERROR status. */
const ERROR = 2;

/**
 * A server span for every request, named `<method> <route>` with the route pattern and the status
 * once the answer is sent (5xx marked failed), active for everything the request does, so that a
 * forward or a bus message it sends carries it on.
 *
 * @example
 *   app.use(httpTracing({ routeOf: matchedRoute, continueTrace: true }));
 */
export function httpTracing(options: HttpTracingOptions): RequestHandler {
  return (req, res, next) => {
    const api = tracingApi();
    if (!api) return next();
    const parent = options.continueTrace ? api.propagation.extract(api.ROOT_CONTEXT, req.headers) : api.ROOT_CONTEXT;
    const span = api.trace.getTracer('svc').startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, parent);
    res.once('close', () => {
      const route = options.routeOf(req, res);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: ERROR });
      // A client that left before the answer was sent.
      if (!res.writableFinished) span.setAttribute('http.aborted', true);
      span.end();
    });
    api.context.with(api.trace.setSpan(parent, span), next);
  };
}
