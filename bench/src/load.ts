import autocannon from 'autocannon';
import { cpuMsOf } from './processes.js';

/** Processes whose CPU a run reports: name → pid (or a thread, `mainThreadOf`), or the pids of a group (Postgres's backends). */
export type Watch = Record<string, ProcessRef | ProcessRef[]>;
type ProcessRef = number | string;

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds: number;
  /** Processes of the system under test (name → pid, or the pids of a group) whose CPU per answered request to report. */
  watch?: Watch;
}

export interface LoadResult {
  /** Successful (2xx) answers. */
  answered: number;
  /** Successful (2xx) answers per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, connection errors and timeouts. */
  failures: number;
  /** CPU this load generator spent per successful request (it shares the machine's cores). */
  clientCpuMs: number;
  /** CPU each watched process spent per successful request (ms, from `/proc`). */
  serverCpuMs: Record<string, number>;
}

/**
 * Runs `fn` and reports, beside its result, the CPU each of `watch` spent meanwhile per answer it
 * counts (`answered` of the result).
 */
export async function watchingCpu<T extends { answered: number }>(watch: Watch = {}, fn: () => Promise<T>): Promise<T & { serverCpuMs: Record<string, number> }> {
  const cpuOf = (pids: ProcessRef | ProcessRef[]) => [pids].flat().reduce<number>((sum, pid) => sum + cpuMsOf(pid), 0);
  const before = Object.entries(watch).map(([name, pids]) => [name, pids, cpuOf(pids)] as const);
  const result = await fn();
  const serverCpuMs = Object.fromEntries(before.map(([name, pids, ms]) => [name, (cpuOf(pids) - ms) / Math.max(1, result.answered)]));
  return { ...result, serverCpuMs };
}

/** CPU (ms) this process spent per request since `since`. */
export function cpuPerRequest(since: NodeJS.CpuUsage, requests: number): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000 / Math.max(1, requests);
}

/** One autocannon run: keep-alive connections, each with one request in flight. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  return watchingCpu(options.watch, async () => {
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
      answered: result['2xx'],
      rps: result['2xx'] / result.duration,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      failures: result.non2xx + result.errors + result.timeouts,
      clientCpuMs: cpuPerRequest(cpu, result['2xx']),
    };
  });
}
