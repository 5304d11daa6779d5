import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The one registry of this process: every family below, and Node's own (CPU, memory, event-loop
 * lag, GC, handles) under `svc_process_` and `svc_nodejs_`. A process of the fleet serves it on SVC_METRICS_PORT;
 * the standalone's services share it, told apart by their `service` label.
 */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics, prefix: 'svc_' });

/** Labels and value of one sample a source gives at scrape time. */
export type Sample<L extends string> = [Partial<Record<L, string>>, number];

/**
 * A gauge read when Prometheus scrapes: the sum of what each registered source answers, so that
 * the standalone's several pools (or none) count together. `readFrom` registers a source and
 * answers its removal.
 */
function sampledGauge<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const sources = new Set<() => Sample<L>[] | Promise<Sample<L>[]>>();
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metrics],
    async collect() {
      this.reset();
      // A source that cannot answer now (the broker away) gives no sample rather than failing the scrape.
      const read = await Promise.all([...sources].map((source) => Promise.resolve().then(source).catch(() => [] as Sample<L>[])));
      for (const [labels, value] of read.flat()) this.inc(labels as never, value);
    },
  });
  return {
    readFrom(source: () => Sample<L>[] | Promise<Sample<L>[]>): () => void {
      sources.add(source);
      return () => sources.delete(source);
    },
  };
}

/** Seconds buckets from 1 ms to 30 s: a cached read, a sync run, a long RPC. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new Counter({ name, help, labelNames, registers: [metrics] });
}

/** Times in seconds, on the SECONDS buckets. */
function histogram<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new Histogram({ name, help, labelNames, buckets: SECONDS, registers: [metrics] });
}

/** Requests answered, by service, method, route pattern (never the concrete path) and status. */
export const httpRequests = counter('svc_http_requests_total', 'HTTP requests answered, by service, method, route pattern and status code', ['service', 'method', 'route', 'status'] as const);

export const httpDuration = histogram('svc_http_request_duration_seconds', 'Time from a request arriving to its answer being sent, by service, method, route pattern and status class', ['service', 'method', 'route', 'status_class'] as const);

export const busPublished = counter('svc_bus_published_total', 'Events published and work sent, by name and outcome (ok, failed)', ['kind', 'name', 'outcome'] as const);

export const busConsumed = counter('svc_bus_consumed_total', 'Deliveries handled, by kind (event, work, rpc), queue and outcome (ok, failed)', ['kind', 'queue', 'outcome'] as const);

export const rpcDuration = histogram('svc_bus_rpc_duration_seconds', 'Time from asking a question over the bus to its answer, by RPC name and outcome (ok, error)', ['name', 'outcome'] as const);

export const execQueueDepth = sampledGauge('svc_exec_queue_depth', 'Messages waiting in each execution queue, as the broker counts them', ['queue'] as const);

export const tasksFinished = counter('svc_tasks_finished_total', 'Runs that reached a terminal state on a worker, by mode (sync, task) and status', ['mode', 'status'] as const);

export const runnerPool = sampledGauge('svc_runner_pool', 'The worker\'s pack runners: live runner processes (what=runners) and calls in them (what=calls)', ['what'] as const);

export const runnerStarts = counter('svc_runner_starts_total', 'Runs by how they found their runner: warm (one was running), spare (the one started ahead was given their pack) or cold (one was started)', ['start'] as const);

export const dbPool = sampledGauge('svc_db_pool_connections', 'Postgres pool connections, by state (total, idle, waiting: callers queued for one)', ['state'] as const);

export const rateLimitRefusals = counter('svc_rate_limit_refusals_total', 'Requests refused with 429, by limit', ['limit'] as const);
