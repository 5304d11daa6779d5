// `npm run fleet`: every service as its own process against real Postgres, Redis and RabbitMQ,
// the way a deployment runs them. Build first (`npm run build`).
import { spawn } from 'node:child_process';

const missing = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL', 'SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET'].filter((n) => !process.env[n]);
if (missing.length > 0) {
  console.error(`The separate-process fleet needs real infrastructure and shared secrets; set: ${missing.join(', ')}`);
  process.exit(2);
}

const processes = [
  { name: 'identity', entry: 'services/identity/dist/main.js', env: { PORT: process.env.SVC_IDENTITY_PORT ?? '8081' } },
  { name: 'registry', entry: 'services/registry/dist/main.js', env: { PORT: process.env.SVC_REGISTRY_PORT ?? '8082' } },
  { name: 'execution', entry: 'services/execution/dist/main.js', env: { PORT: process.env.SVC_EXECUTION_PORT ?? '8083' } },
  { name: 'execution-worker', entry: 'services/execution/dist/worker.js', env: {} },
  { name: 'gateway', entry: 'gateway/dist/main.js', env: { PORT: process.env.PORT ?? '8080' } },
];

const children = processes.map(({ name, entry, env }) => {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], { stdio: 'inherit', env: { ...process.env, ...env } });
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
