// `npm start`: install with the lockfile, build, and run the whole platform in one process on
// embedded infrastructure (or on real Postgres/Redis/RabbitMQ when their URLs are set).
import { spawn } from 'node:child_process';
import { PROCESS_NODE_FLAGS } from './node-flags.mjs';
import { pnpm } from './pnpm.mjs';

const step = (args) => {
  const status = pnpm(args);
  if (status !== 0) process.exit(status);
};

step(['install', '--frozen-lockfile']);
step(['run', 'build']);

const child = spawn(process.execPath, [...PROCESS_NODE_FLAGS, 'deploy/standalone/dist/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
