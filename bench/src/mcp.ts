import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { leanFetch } from './lean-fetch.js';
import { percentile } from './stats.js';
import { cpuPerRequest, watchingCpu, type LoadResult, type Watch } from './load.js';

export interface McpTarget {
  client: Client;
  tool: string;
}

/**
 * Node's fetch with an abort signal of its own per call. The SDK's transport hands the same
 * signal to every call, and Node's fetch leaves its listener on it until the request is
 * garbage-collected: thousands of listeners within a run, and a warning printed for each.
 */
const nodeFetch: typeof fetch = async (input, init = {}) => {
  const shared = init.signal;
  if (!shared) return fetch(input, init);
  const own = new AbortController();
  const abort = () => own.abort(shared.reason);
  // Every call in flight listens on the shared signal until it is answered.
  setMaxListeners(0, shared);
  shared.addEventListener('abort', abort, { once: true });
  try {
    return await fetch(input, { ...init, signal: own.signal });
  } finally {
    shared.removeEventListener('abort', abort);
  }
};

/**
 * An MCP client of the official SDK on the gateway's `/mcp`, and the name of the echo tool. With
 * `connections`, the transport fetches through `leanFetch`; without, through Node's own fetch.
 */
export async function connectMcp(url: string, apiKey: string, connections?: number): Promise<McpTarget> {
  const client = new Client({ name: 'svc-bench', version: '1.0.0' });
  const fetch = connections === undefined ? nodeFetch : leanFetch(connections);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { fetch, requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name.endsWith('__echo'));
  if (!tool) throw new Error(`no echo tool among ${tools.map((t) => t.name).join(', ')}`);
  return { client, tool: tool.name };
}

/**
 * `tools/call` of the echo tool for `durationSeconds`, with `inFlight` calls outstanding at
 * every moment (each lane starts its next call when the last one answers); the CPU of the
 * `watch`ed processes per call beside it.
 */
export function loadMcp({ client, tool }: McpTarget, durationSeconds: number, inFlight = 32, watch?: Watch): Promise<LoadResult> {
  return watchingCpu(watch, async () => {
    const latencies: number[] = [];
    let failures = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const until = started + durationSeconds * 1000;
    const lane = async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          const result = await client.callTool({ name: tool, arguments: { text: 'bench' } });
          if (result.isError) failures += 1;
          else latencies.push(performance.now() - t0);
        } catch {
          failures += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    const seconds = (performance.now() - started) / 1000;
    const answered = latencies.length;
    return { answered, rps: answered / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), failures, clientCpuMs: cpuPerRequest(cpu, answered) };
  });
}
