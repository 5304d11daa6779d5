// `npm start`: install with the lockfile, build, and run the whole platform in one process on
// embedded infrastructure (or on real Postgres/Redis/RabbitMQ when their URLs are set).
import { spawn } from 'node:child_process';
import { platformEnv, PROCESS_NODE_FLAGS } from './node-flags.mjs';
import { pnpm } from './pnpm.mjs';

// Operators set NODE_ENV=production. It is for the platform at run time; given to the install
// it would leave out (or remove) the devDependencies the build needs (tsup, typescript), so the
// install and the build run without it and the platform gets the environment as it was given.
const { NODE_ENV: _forTheRunOnly, ...buildEnv } = process.env;

const step = (args) => {
  const status = pnpm(args, { env: buildEnv });
  if (status !== 0) process.exit(status);
};

step(['install', '--frozen-lockfile']);
step(['run', 'build']);

const child = spawn(process.execPath, [...PROCESS_NODE_FLAGS, 'deploy/standalone/dist/main.js'], { stdio: 'inherit', env: platformEnv(process.env) });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
