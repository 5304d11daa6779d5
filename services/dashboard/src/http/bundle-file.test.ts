import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleFileHandle } from '../services/bundle.service.js';
import { sendBundleFile } from './bundle-file.js';

const BYTES = Buffer.from('export function mount() {}\nexport function unmount() {}\n');

/**
 * A handle whose stored bytes are `stored`, while its inventory row says BYTES: read as a
 * stream (a large file) or from memory (a small one).
 */
const handle = (stored: Buffer, from: 'stream' | 'memory'): BundleFileHandle => ({
  file: { versionId: 'v1', path: 'main.js', sizeBytes: BYTES.length, sha256: 'a'.repeat(64) },
  read: async (range) => {
    const bytes = range ? stored.subarray(range.start, range.end + 1) : stored;
    return from === 'memory' ? bytes : Readable.from([bytes]);
  },
});

describe('sending a bundle file', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.get('/:from/whole', (req, res) => sendBundleFile(req, res, handle(BYTES, req.params.from as 'stream' | 'memory')));
    app.get('/:from/short', (req, res) => sendBundleFile(req, res, handle(BYTES.subarray(0, 10), req.params.from as 'stream' | 'memory')));
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it.each(['stream', 'memory'])('sends the bytes with their length, whole or as one range, from %s', async (from) => {
    const whole = await fetch(`${base}/${from}/whole`);
    expect([whole.status, whole.headers.get('content-length'), Buffer.from(await whole.arrayBuffer()).equals(BYTES)]).toEqual([200, String(BYTES.length), true]);
    const part = await fetch(`${base}/${from}/whole`, { headers: { range: 'bytes=7-14' } });
    expect([part.status, await part.text()]).toEqual([206, BYTES.subarray(7, 15).toString()]);
  });

  it.each(['stream', 'memory'])('cuts the connection at once when the stored bytes (from %s) fall short of the stated length, instead of leaving the client waiting', async (from) => {
    // Not a wall-clock bound (a loaded machine is slow for reasons of its own): the body must end
    // in a cut connection, not in the client's own give-up.
    // From memory the length is known before anything is sent: the cut comes before the head.
    const error = (await fetch(`${base}/${from}/short`, { signal: AbortSignal.timeout(20_000) })
      .then((reply) => reply.arrayBuffer())
      .catch((err: unknown) => err)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).not.toMatch(/TimeoutError|AbortError/);
  });
});
