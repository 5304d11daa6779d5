// `npm run fleet`: every service as its own process against real Postgres, Redis and RabbitMQ,
// the way a deployment runs them. Build first (`npm run build`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { cpuProfileFlags, PROCESS_NODE_FLAGS } from './node-flags.mjs';

const missing = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL', 'SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET'].filter((n) => !process.env[n]);
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
};
const serviceUrls = Object.fromEntries(
  Object.entries(ports).map(([name, port]) => [`SVC_${name.toUpperCase()}_URL`, process.env[`SVC_${name.toUpperCase()}_URL`] ?? `http://127.0.0.1:${port}`]),
);

const processes = [
  ...Object.entries(ports).map(([name, port]) => ({ name, entry: `services/${name}/dist/main.js`, env: { PORT: port } })),
  // Workers take jobs from the bus and listen on no port.
  { name: 'execution-worker', entry: 'services/execution/dist/worker.js', env: {} },
  { name: 'gateway', entry: 'gateway/dist/main.js', env: { PORT: process.env.PORT ?? '8080', ...serviceUrls } },
];

// SVC_CPU_PROF_DIR: every process writes a CPU profile into a folder of its own name when it exits.
const profiling = (name) => (process.env.SVC_CPU_PROF_DIR ? cpuProfileFlags(join(process.env.SVC_CPU_PROF_DIR, name)) : []);

const children = processes.map(({ name, entry, env }) => {
  const child = spawn(process.execPath, [...PROCESS_NODE_FLAGS, ...profiling(name), entry], { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    console.error(`${name} exited (${signal ?? code}); stopping the fleet`);
    shutdown(code ?? 1);
  });
  return child;
});

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 11_000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.on('exit', r)) : null))).then(() => process.exit(code));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => shutdown(0));
