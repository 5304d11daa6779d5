import type { Writable } from 'node:stream';
import type { ChannelModel } from 'amqplib';

interface MuxedConnection {
  stream?: Writable;
  muxer?: { _readIncoming?: () => void };
}

/**
 * The amqplib release whose internals `batchFrameWrites` was written against: the connection's
 * `stream` and `muxer`, and `Mux#_readIncoming` (lib/mux.js), which writes one round of frames.
 * The dependency is pinned to it, and frame-batching.pinned.test.ts fails on any other release
 * (or a changed lib/mux.js) until these internals are read again.
 */
export const FRAME_BATCHING_AMQPLIB = '0.10.9';

/**
 * Fast path: amqplib's multiplexer writes every frame (a message's method, header and body; every
 * ack) to the socket on its own: one system call each, most of a busy bus's CPU. Corking the
 * socket while it writes one round sends the round as a single write. Reaches into amqplib's
 * connection (`FRAME_BATCHING_AMQPLIB`); answers false, changing nothing, where that shape is not
 * there.
 */
export function batchFrameWrites(model: ChannelModel): boolean {
  const connection = (model as unknown as { connection?: MuxedConnection }).connection;
  const stream = connection?.stream;
  const muxer = connection?.muxer;
  const readIncoming = muxer?._readIncoming;
  if (!stream || typeof stream.cork !== 'function' || !muxer || typeof readIncoming !== 'function') return false;
  muxer._readIncoming = function corked(this: unknown) {
    stream.cork();
    try {
      readIncoming.call(muxer);
    } finally {
      stream.uncork();
    }
  };
  return true;
}
