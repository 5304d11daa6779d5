import { Agent, request } from 'node:http';
import { sleep } from './stats.js';

export interface TaskRunResult {
  tasks: number;
  /** First submission to the last task seen in `success`. */
  seconds: number;
  tasksPerSecond: number;
  submitSeconds: number;
  succeeded: number;
  failed: number;
  /** Submitted (or refused) but never seen to end within the deadline. */
  lost: number;
}

/** Plain `http` with kept-alive sockets: the load generator should cost as little as it can. */
function client(baseUrl: string, apiKey: string, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(baseUrl);
  return (method: 'GET' | 'POST', path: string, body?: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
      if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      const req = request({ agent, hostname, port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
}

const TERMINAL_FAILURES = new Set(['failure', 'timeout', 'revoked']);

/**
 * B4: submits `count` tasks (`?async=true`) over `connections` connections, then polls every
 * one until it is `success`; a task is lost if it never gets there within `deadlineMs`.
 */
export async function runTasks(baseUrl: string, apiKey: string, commandPath: string, count: number, connections = 32, deadlineMs = 120_000): Promise<TaskRunResult> {
  const http = client(baseUrl, apiKey, connections);
  const started = performance.now();
  const ids: string[] = [];
  let refused = 0;
  let next = 0;
  const submitLane = async () => {
    while (next < count) {
      const i = next++;
      const reply = await http('POST', `${commandPath}?async=true`, JSON.stringify({ text: `task ${i}` })).catch(() => undefined);
      if (reply?.status === 202) ids.push(reply.body.data.task_id);
      else refused += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, submitLane));
  const submitSeconds = (performance.now() - started) / 1000;

  let succeeded = 0;
  let failed = 0;
  let finishedAt = performance.now();
  const pending = [...ids];
  const until = started + deadlineMs;
  const pollLane = async () => {
    while (pending.length > 0 && performance.now() < until) {
      const id = pending.shift()!;
      const reply = await http('GET', `/api/v1/tasks/${id}`).catch(() => undefined);
      const status: string | undefined = reply?.status === 200 ? reply.body.data.status : undefined;
      if (status === 'success') {
        succeeded += 1;
        finishedAt = performance.now();
      } else if (status && TERMINAL_FAILURES.has(status)) {
        failed += 1;
      } else {
        pending.push(id);
        // Everything left is still running: give the worker a moment instead of spinning.
        if (pending.length <= connections) await sleep(10);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, pollLane));
  const seconds = (finishedAt - started) / 1000;
  return { tasks: count, seconds, tasksPerSecond: succeeded / seconds, submitSeconds, succeeded, failed, lost: refused + pending.length };
}
