// `npm run fleet`: every service as its own process against real Postgres, Redis and RabbitMQ,
// the way a deployment runs them, each started again when it dies. Build first (`npm run build`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { cpuProfileFlags, platformEnv, PROCESS_NODE_FLAGS } from './node-flags.mjs';

const missing = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL', 'SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_SSH_ENCRYPTION_KEY'].filter((n) => !process.env[n]);
if (missing.length > 0) {
  console.error(`The separate-process fleet needs real infrastructure and shared secrets; set: ${missing.join(', ')}`);
  process.exit(2);
}

// Each service's port, and the URL the gateway finds it at, unless set.
const ports = {
  identity: process.env.SVC_IDENTITY_PORT ?? '8081',
  registry: process.env.SVC_REGISTRY_PORT ?? '8082',
  execution: process.env.SVC_EXECUTION_PORT ?? '8083',
  storage: process.env.SVC_STORAGE_PORT ?? '8084',
  admin: process.env.SVC_ADMIN_PORT ?? '8085',
  billing: process.env.SVC_BILLING_PORT ?? '8086',
  notify: process.env.SVC_NOTIFY_PORT ?? '8089',
  dashboard: process.env.SVC_DASHBOARD_PORT ?? '8087',
  ssh: process.env.SVC_SSH_PORT ?? '8088',
};
const serviceUrls = Object.fromEntries(
  Object.entries(ports).map(([name, port]) => [`SVC_${name.toUpperCase()}_URL`, process.env[`SVC_${name.toUpperCase()}_URL`] ?? `http://127.0.0.1:${port}`]),
);

// SVC_FLEET_WORKERS: how many execution workers (default 1), each but the first with a data
// folder of its own (unpacked packs) under SVC_DATA_DIR. The fault suite runs two, so that a job
// the broker hands out again can reach another worker than the one running it.
const workers = Number(process.env.SVC_FLEET_WORKERS ?? '1');
const dataDir = process.env.SVC_DATA_DIR ?? './.svc-data';
const workerProcesses = Array.from({ length: workers }, (_, i) =>
  i === 0
    ? { name: 'execution-worker', entry: 'services/execution/dist/worker.js', env: {} }
    : { name: `execution-worker-${i + 1}`, entry: 'services/execution/dist/worker.js', env: { SVC_DATA_DIR: join(dataDir, `worker-${i + 1}`) } },
);

const processes = [
  ...Object.entries(ports).map(([name, port]) => ({ name, entry: `services/${name}/dist/main.js`, env: { PORT: port } })),
  // Workers take jobs from the bus and listen on no port.
  ...workerProcesses,
  { name: 'gateway', entry: 'gateway/dist/main.js', env: { PORT: process.env.PORT ?? '8080', ...serviceUrls } },
];

// SVC_CPU_PROF_DIR: every process writes a CPU profile into a folder of its own name when it exits.
const profiling = (name) => (process.env.SVC_CPU_PROF_DIR ? cpuProfileFlags(join(process.env.SVC_CPU_PROF_DIR, name)) : []);

// A process that dies is started again after a pause that doubles with each quick death (1 s,
// 2 s, 4 s … up to 30 s) and starts over once it has stayed up for a minute; the others keep
// serving meanwhile, as an orchestrator would have it.
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 30_000;
const STABLE_AFTER_MS = 60_000;

let stopping = false;
const running = new Map();

function start(proc) {
  const { name, entry, env } = proc;
  const startedAt = Date.now();
  const child = spawn(process.execPath, [...PROCESS_NODE_FLAGS, ...profiling(name), entry], { stdio: 'inherit', env: platformEnv({ ...process.env, ...env }) });
  running.set(name, child);
  child.on('exit', (code, signal) => {
    running.delete(name);
    if (stopping) return;
    proc.quickDeaths = Date.now() - startedAt >= STABLE_AFTER_MS ? 0 : (proc.quickDeaths ?? 0) + 1;
    const delay = Math.min(RESTART_FIRST_MS * 2 ** Math.max(0, proc.quickDeaths - 1), RESTART_MAX_MS);
    console.error(`${name} exited (${signal ?? code}); starting it again in ${delay} ms`);
    setTimeout(() => {
      if (!stopping) start(proc);
    }, delay);
  });
}

for (const proc of processes) start(proc);

function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const children = [...running.values()];
  for (const child of children) child.kill('SIGTERM');
  // Each child has its stop grace plus 5 s to close (`onShutdown` of @svc/platform); a second more here.
  setTimeout(() => process.exit(code), Number(process.env.SVC_STOP_GRACE_MS ?? 20_000) + 6000).unref();
  Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.on('exit', r)) : null))).then(() => process.exit(code));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => shutdown(0));
