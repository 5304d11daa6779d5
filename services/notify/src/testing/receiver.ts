import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

export interface TestReceiver {
  url: string;
  /** Every request, answered or not. */
  received: ReceivedDelivery[];
  /** What the next requests are answered with (default 200); `drop` closes the connection unanswered. */
  answer(status: number | 'drop'): void;
  close(): Promise<void>;
}

/** A webhook receiver on a loopback port: a plain node http server that keeps what it is sent. */
export async function startReceiver(): Promise<TestReceiver> {
  const received: ReceivedDelivery[] = [];
  let status: number | 'drop' = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ at: Date.now(), headers: req.headers, body, event: JSON.parse(body) });
      if (status === 'drop') return req.socket.destroy();
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answer(next) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * How a receiver checks `Svc-Signature` (the README's snippet): recompute the HMAC of
 * `"<t>.<raw body>"` with the endpoint's secret, compare in constant time, and refuse old `t`.
 */
export function verifySignature(secret: string, header: string, rawBody: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
