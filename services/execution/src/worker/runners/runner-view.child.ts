// Run by runner-sandbox.test.ts as a user that is not root: prepares the sandbox as such a worker
// would, and prints what it reports and what a runner of it finds of the host.
import { dirname } from 'node:path';
import { capturingLogger } from '@svc/testing';
import { defaultRunnerScript } from './runner-launch.js';
import { RunnerSandbox } from './runner-sandbox.js';
import { viewThrough, VIEW_LIMITS } from './runner-test-helpers.js';

const packDir = process.argv.at(-1)!;
const sandbox = await RunnerSandbox.prepare({ mode: 'required', runnerDir: dirname(defaultRunnerScript()), limits: VIEW_LIMITS, logger: capturingLogger().logger });
process.stdout.write(JSON.stringify({ report: sandbox.report, view: viewThrough(sandbox, packDir) }));
