/**
 * The framing of the pipe between the service and a pack runner. Each frame is two 32-bit
 * big-endian lengths, a JSON header and a raw payload:
 *
 *   [header bytes][payload bytes][header: JSON object][payload: JSON text, or log text]
 *
 * Values (inputs, results, hook arguments) travel as JSON text in the payload, never as a
 * serialized object graph: JSON.parse takes any depth without recursing, where Node's
 * `advanced` IPC serialization overflowed the stack on 2,000 nested objects. The reader refuses
 * any frame over its limits before reading it whole, so a runner cannot make the service buffer
 * more than one frame's worth.
 */

const PREFIX_BYTES = 8;

export interface FrameLimits {
  headerBytes: number;
  payloadBytes: number;
}

export interface Frame {
  header: Record<string, unknown>;
  payload: Buffer;
}

/** One frame as bytes; `payload` is JSON text or log text. */
export function encodeFrame(header: Record<string, unknown>, payload: string | Buffer = ''): Buffer {
  const head = Buffer.from(JSON.stringify(header));
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const prefix = Buffer.allocUnsafe(PREFIX_BYTES);
  prefix.writeUInt32BE(head.length, 0);
  prefix.writeUInt32BE(body.length, 4);
  return Buffer.concat([prefix, head, body]);
}

/**
 * Reassembles frames from the chunks a pipe delivers. `onFrame` gets each whole frame;
 * `onViolation` is called once, with the reason, for a frame over the limits or a header that
 * is not a JSON object, after which the reader ignores everything (the runner is to be killed).
 */
export class FrameReader {
  readonly #limits: FrameLimits;
  readonly #onFrame: (frame: Frame) => void;
  readonly #onViolation: (reason: string) => void;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #broken = false;

  constructor(limits: FrameLimits, onFrame: (frame: Frame) => void, onViolation: (reason: string) => void) {
    this.#limits = limits;
    this.#onFrame = onFrame;
    this.#onViolation = onViolation;
  }

  push(chunk: Buffer): void {
    if (this.#broken) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    while (!this.#broken && this.#buffered >= PREFIX_BYTES) {
      const prefix = this.#peek(PREFIX_BYTES);
      const headerBytes = prefix.readUInt32BE(0);
      const payloadBytes = prefix.readUInt32BE(4);
      if (headerBytes > this.#limits.headerBytes) return this.#violate(`a frame header of ${headerBytes} bytes (limit ${this.#limits.headerBytes})`);
      if (payloadBytes > this.#limits.payloadBytes) return this.#violate(`a frame payload of ${payloadBytes} bytes (limit ${this.#limits.payloadBytes})`);
      const total = PREFIX_BYTES + headerBytes + payloadBytes;
      if (this.#buffered < total) return;
      const frame = this.#take(total);
      let header: unknown;
      try {
        header = JSON.parse(frame.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerBytes));
      } catch {
        return this.#violate('a frame header that is not JSON');
      }
      if (header === null || typeof header !== 'object' || Array.isArray(header)) return this.#violate('a frame header that is not an object');
      this.#onFrame({ header: header as Record<string, unknown>, payload: frame.subarray(PREFIX_BYTES + headerBytes) });
    }
  }

  #violate(reason: string): void {
    this.#broken = true;
    this.#chunks = [];
    this.#buffered = 0;
    this.#onViolation(reason);
  }

  /** The buffered bytes as one buffer (the caller made sure there are some). */
  #joined(): Buffer {
    const [first] = this.#chunks;
    if (this.#chunks.length === 1 && first) return first;
    const joined = Buffer.concat(this.#chunks);
    this.#chunks = [joined];
    return joined;
  }

  #peek(bytes: number): Buffer {
    const [first] = this.#chunks;
    return first && first.length >= bytes ? first : this.#joined();
  }

  #take(bytes: number): Buffer {
    const joined = this.#joined();
    this.#chunks = joined.length > bytes ? [joined.subarray(bytes)] : [];
    this.#buffered -= bytes;
    return joined.subarray(0, bytes);
  }
}
