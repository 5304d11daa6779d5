import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds: number;
}

export interface LoadResult {
  /** Successful (2xx) answers per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, connection errors and timeouts. */
  failures: number;
  /** CPU this load generator spent per successful request (it shares the machine's cores). */
  clientCpuMs: number;
}

/** CPU (ms) this process spent per request since `since`. */
export function cpuPerRequest(since: NodeJS.CpuUsage, requests: number): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000 / Math.max(1, requests);
}

/** One autocannon run: keep-alive connections, each with one request in flight. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 32,
    duration: options.durationSeconds,
  });
  return {
    rps: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    clientCpuMs: cpuPerRequest(cpu, result['2xx']),
  };
}
