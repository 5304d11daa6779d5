import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

export interface LatencyResult {
  /** Requests answered 2xx. */
  answered: number;
  /** Median time from sending a request to its last byte (ms, to the microsecond). */
  p50Ms: number;
  p99Ms: number;
}

/**
 * L1: one caller, one request at a time over one kept-alive connection, for `seconds`. Latency
 * is read with `performance.now()`, since autocannon's histogram keeps whole milliseconds and L1's
 * differences are fractions of one.
 */
export async function singleCaller(url: string, options: { headers: Record<string, string>; body: string }, seconds: number): Promise<LatencyResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port, pathname } = new URL(url);
  const headers = { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const req = request({ agent, hostname, port, path: pathname, method: 'POST', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(options.body);
    });
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  try {
    while (performance.now() < until) {
      const sent = performance.now();
      const status = await once();
      if (status >= 200 && status < 300) times.push(performance.now() - sent);
    }
  } finally {
    agent.destroy();
  }
  return { answered: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}
