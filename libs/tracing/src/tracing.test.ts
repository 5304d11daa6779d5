import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import express from 'express';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { z } from 'zod';
import { annotate, currentTraceparent, injectTrace, traced, tracingEnv } from './index.js';
import { httpTracing } from './http.js';
import { parentIdOf, recordedSpans } from './testing/index.js';

const spans = await recordedSpans();
const only = (name: string) => {
  const found = spans.named(name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
/** A server span ends once the answer's connection is done with it, which may be just after the client has read it. */
const ended = (name: string) => vi.waitFor(() => only(name));

describe('spans and propagation while tracing', () => {
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    const app = express();
    const routeOf = (req: express.Request) => (req.route ? String(req.route.path) : 'unmatched');
    app.use('/service', httpTracing({ routeOf, continueTrace: true }));
    app.use('/door', httpTracing({ routeOf, continueTrace: false }));
    const answer: express.RequestHandler = (req, res) => {
      if (req.params.status === '503') return void res.status(503).json({ failed: true });
      traced('test.work', {}, async () => ({ traceparent: currentTraceparent() })).then((body) => res.json(body));
    };
    app.get('/service/:status', answer);
    app.get('/door/:status', answer);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());
  beforeEach(() => spans.reset());

  const incoming = `00-${'a1'.repeat(16)}-${'b2'.repeat(8)}-01`;

  it('continues the caller\'s traceparent in a service\'s server span, named by its route, and the work under it', async () => {
    const reply = await fetch(`${base}/service/200`, { headers: { traceparent: incoming } });
    const { traceparent } = (await reply.json()) as { traceparent: string };
    const server = await ended('GET /service/:status');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe('a1'.repeat(16));
    expect(parentIdOf(server)).toBe('b2'.repeat(8));
    expect(server.attributes).toMatchObject({ 'http.route': '/service/:status', 'http.response.status_code': 200, 'http.request.method': 'GET' });
    const work = only('test.work');
    expect(parentIdOf(work)).toBe(server.spanContext().spanId);
    expect(traceparent).toBe(`00-${'a1'.repeat(16)}-${work.spanContext().spanId}-01`);
  });

  it('starts a trace of its own at the public door, whatever the client says, and marks a 5xx failed', async () => {
    await fetch(`${base}/door/503`, { headers: { traceparent: incoming } });
    const door = await ended('GET /door/:status');
    expect(door.spanContext().traceId).not.toBe('a1'.repeat(16));
    expect(parentIdOf(door)).toBeUndefined();
    expect(door.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('ends a failed piece of work marked with the error\'s class and code, never its message, and adds what is learnt on the way', async () => {
    const failed = traced('test.failing', { attributes: { 'svc.step': 1 } }, async () => {
      annotate({ 'svc.learnt': 'late' });
      throw Object.assign(new TypeError('input was hunter2'), { code: 'BAD_INPUT' });
    });
    await expect(failed).rejects.toThrow('input was hunter2');
    const span = only('test.failing');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TypeError' });
    expect(span.attributes).toEqual({ 'svc.step': 1, 'svc.learnt': 'late', 'error.type': 'TypeError', 'error.code': 'BAD_INPUT' });
  });

  it('writes the active span into a carrier, and nothing outside a span', async () => {
    const outside: Record<string, string> = {};
    injectTrace(outside);
    expect(outside).toEqual({});
    const inside: Record<string, string> = {};
    await traced('test.carrier', {}, async () => injectTrace(inside));
    expect(inside.traceparent).toBe(`00-${only('test.carrier').spanContext().traceId}-${only('test.carrier').spanContext().spanId}-01`);
  });
});

describe('the tracing variables', () => {
  const parse = (env: Record<string, string>) => z.object(tracingEnv).safeParse(env);

  it('takes the specification\'s samplers, a ratio between 0 and 1 and an http(s) endpoint', () => {
    expect(parse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25', OTEL_SERVICE_NAME: 'gateway-eu' })).toMatchObject({ success: true, data: { OTEL_TRACES_SAMPLER_ARG: 0.25 } });
    expect(parse({})).toMatchObject({ success: true, data: {} });
  });

  it('refuses an unknown sampler, a ratio outside 0 to 1 and an endpoint that is not http(s)', () => {
    expect(parse({ OTEL_TRACES_SAMPLER: 'sometimes' }).success).toBe(false);
    expect(parse({ OTEL_TRACES_SAMPLER_ARG: '1.5' }).success).toBe(false);
    expect(parse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }).success).toBe(false);
  });
});
