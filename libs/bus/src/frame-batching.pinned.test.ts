import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAME_BATCHING_AMQPLIB } from './frame-batching.js';

// Runs without a broker: it reads the installed amqplib, the code frame batching patches.
const require = createRequire(import.meta.url);
const root = dirname(require.resolve('amqplib/package.json'));
const source = (file: string) => readFileSync(join(root, file), 'utf8');

/** lib/mux.js of amqplib 0.10.9, whose `_readIncoming` frame batching wraps. */
const MUX_SHA256 = '5ce193578d3233ed2bccde48d07940772c7e420e356451b2f6b25667c84628a2';

describe(`amqplib internals that frame batching patches (checked against ${FRAME_BATCHING_AMQPLIB})`, () => {
  it('is the release frame batching was written against', () => {
    const { version } = JSON.parse(source('package.json')) as { version: string };
    expect(version, 'amqplib changed: re-read lib/mux.js and lib/connection.js, then update FRAME_BATCHING_AMQPLIB and this test').toBe(FRAME_BATCHING_AMQPLIB);
  });

  it('has the multiplexer whose write round is corked, unchanged', () => {
    const mux = source('lib/mux.js');
    expect(createHash('sha256').update(mux).digest('hex'), 'lib/mux.js changed: check that _readIncoming still writes one round of frames to `out`').toBe(MUX_SHA256);
  });

  it('keeps the socket and the multiplexer on the connection, where frame batching finds them', () => {
    const connection = source('lib/connection.js');
    expect(connection).toContain('this.stream = wrapStream(underlying)');
    expect(connection).toContain('this.muxer = new Mux(stream)');
  });

  it('lists the pinned release as the dependency, not a range', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies.amqplib).toBe(FRAME_BATCHING_AMQPLIB);
  });
});
