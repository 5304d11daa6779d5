import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from './errors.js';
import { errorHandler, jsonBody } from './http.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { createLogger } from './logger.js';

const app = express();
app.use(...jsonBody());
app.post('/echo', (req, res) => {
  res.json({ data: req.body });
});
app.get('/busy', () => {
  throw new ServiceUnavailableError('Every pack runner is busy; try again shortly', { retry_after: 2 });
});
app.get('/away', () => {
  throw new ServiceUnavailableError('Database is unavailable');
});
app.use(errorHandler(createLogger({ service: 'test', silent: true })));

const nested = (depth: number) => `{"data":${'{"a":'.repeat(depth - 2)}[1]${'}'.repeat(depth - 2)}}`;

describe('jsonBody and errorHandler', () => {
  it.each(['gzip', 'deflate', 'br'])('answers 400 VALIDATION_FAILED to a plain body sent as Content-Encoding %s', async (encoding) => {
    const res = await request(app).post('/echo').set('content-type', 'application/json').set('content-encoding', encoding).send('{"a":1}');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', type: 'ValidationError' });
  });

  it('answers 415 to an encoding it does not know', async () => {
    const res = await request(app).post('/echo').set('content-type', 'application/json').set('content-encoding', 'zstd-x').send('{"a":1}');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it(`reads a body nested ${MAX_JSON_DEPTH} levels deep and refuses one level more, or 5,000, with 400`, async () => {
    expect((await request(app).post('/echo').set('content-type', 'application/json').send(nested(MAX_JSON_DEPTH))).status).toBe(200);
    for (const depth of [MAX_JSON_DEPTH + 1, 5000]) {
      const res = await request(app).post('/echo').set('content-type', 'application/json').send(nested(depth));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { limit_depth: MAX_JSON_DEPTH } });
    }
  });

  it('says when to try again as Retry-After on a 503 that knows it, and not otherwise', async () => {
    const busy = await request(app).get('/busy');
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('2');
    expect(busy.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retry_after: 2 } });
    const away = await request(app).get('/away');
    expect(away.status).toBe(503);
    expect(away.headers['retry-after']).toBeUndefined();
  });

  it('answers a malformed body without quoting any of it, since it may carry a secret', async () => {
    for (const body of ['{"value": hunter2-secret}', 'hunter2-secret', '{"password":"hunter2-secret" x}', `{"value":"${'x'.repeat(40)}hunter2-secret`]) {
      const res = await request(app).post('/echo').set('content-type', 'application/json').send(body);
      expect(res.status, body).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Malformed JSON body' });
      expect(JSON.stringify(res.body), body).not.toContain('hunter2');
    }
  });
});
