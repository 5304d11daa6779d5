import { runCli } from './cli.js';
import { readEnv } from './env.js';

const interrupted = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
const code = await runCli(process.argv.slice(2), { env: readEnv(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }, { interrupted });
// Exit once stdout has drained: a piped envelope must arrive whole.
process.stdout.write('', () => process.exit(code));
