import { describe, expect, it } from 'vitest';
import express from 'express';
import { currentTraceparent, injectTrace, isTracing, startTracing, traced, withTraceHeaders } from './index.js';
import { httpTracing } from './http.js';

// This file never turns tracing on: it is what every process without OTEL_EXPORTER_OTLP_ENDPOINT runs.
describe('tracing without an endpoint', () => {
  it('starts nothing: no SDK registered with the API, nothing recorded, nothing written into carriers', async () => {
    const tracing = await startTracing({}, { service: 'test' });
    await tracing.flush();
    expect(isTracing()).toBe(false);
    // The API's global registry exists only once an SDK registered a provider or a propagator.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')]).toBeUndefined();

    const carrier: Record<string, string> = {};
    const headers = { 'x-kept': 'yes' };
    await traced('test.off', {}, async () => {
      injectTrace(carrier);
      expect(currentTraceparent()).toBeUndefined();
      expect(withTraceHeaders(headers)).toBe(headers);
    });
    expect(carrier).toEqual({});
  });

  it('passes a request through without a span, whatever trace it says it belongs to', async () => {
    const app = express();
    app.use(httpTracing({ routeOf: () => '/x', continueTrace: true }));
    app.get('/x', (req, res) => void res.json({ traceparent: currentTraceparent() ?? null, header: req.headers.traceparent }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const given = `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`;
    const reply = await fetch(`http://127.0.0.1:${port}/x`, { headers: { traceparent: given } });
    expect(await reply.json()).toEqual({ traceparent: null, header: given });
    server.close();
  });
});
