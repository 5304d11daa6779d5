import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleFileHandle } from '../services/bundle.service.js';
import { sendBundleFile } from './bundle-file.js';

const BYTES = Buffer.from('export function mount() {}\nexport function unmount() {}\n');

/** A handle whose stored bytes are `stored`, while its inventory row says BYTES. */
const handle = (stored: Buffer): BundleFileHandle => ({
  file: { versionId: 'v1', path: 'main.js', sizeBytes: BYTES.length, sha256: 'a'.repeat(64) },
  open: async (range) => Readable.from([range ? stored.subarray(range.start, range.end + 1) : stored]),
});

describe('sending a bundle file', () => {
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.get('/whole', (req, res) => sendBundleFile(req, res, handle(BYTES)));
    app.get('/short', (req, res) => sendBundleFile(req, res, handle(BYTES.subarray(0, 10))));
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('sends the bytes with their length, whole or as one range', async () => {
    const whole = await fetch(`${base}/whole`);
    expect([whole.status, whole.headers.get('content-length'), Buffer.from(await whole.arrayBuffer()).equals(BYTES)]).toEqual([200, String(BYTES.length), true]);
    const part = await fetch(`${base}/whole`, { headers: { range: 'bytes=7-14' } });
    expect([part.status, await part.text()]).toEqual([206, BYTES.subarray(7, 15).toString()]);
  });

  it('cuts the connection at once when the stored bytes fall short of the stated length, instead of leaving the client waiting', async () => {
    // Not a wall-clock bound (a loaded machine is slow for reasons of its own): the body must end
    // in a cut connection, not in the client's own give-up.
    const reply = await fetch(`${base}/short`, { signal: AbortSignal.timeout(20_000) });
    const error = (await reply.arrayBuffer().catch((err: unknown) => err)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).not.toMatch(/TimeoutError|AbortError/);
  });
});
