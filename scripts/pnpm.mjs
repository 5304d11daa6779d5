// Runs the pinned pnpm, fetched from the npm registry when it is not installed,
// so that a machine with only Node can build and test the workspace.
import { spawn, spawnSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';

const { packageManager } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const version = packageManager.split('@')[1];

// pnpm's own settings, given on its command line rather than in `.npmrc`: npm reads that file
// too, and warns about every key it does not know on each `npm start`, `npm test` and `npx`.
// A flat node_modules: bundled service entry points resolve third-party packages from the
// repository root, the same way in every service.
export const PNPM_SETTINGS = ['--config.node-linker=hoisted'];

let command;

/** The pinned pnpm on the PATH, or npx fetching it: [executable, leading arguments]. */
function pnpmCommand() {
  if (!command) {
    const local = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
    command = local.status === 0 && local.stdout.trim() === version ? ['pnpm', []] : ['npx', ['--yes', `pnpm@${version}`]];
  }
  return command;
}

export function pnpm(args, options = {}) {
  const [cmd, prefix] = pnpmCommand();
  const result = spawnSync(cmd, [...prefix, ...PNPM_SETTINGS, ...args], { stdio: 'inherit', ...options });
  return result.status ?? 1;
}

/**
 * Runs pnpm with its output held back, so that several can run at once and each prints whole:
 * resolves to its exit status and everything it wrote to stdout and stderr, in order.
 */
export function pnpmCaptured(args) {
  const [cmd, prefix] = pnpmCommand();
  return new Promise((resolve) => {
    const child = spawn(cmd, [...prefix, ...PNPM_SETTINGS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => resolve({ status: 1, output: String(err) }));
    child.on('close', (status) => resolve({ status: status ?? 1, output: Buffer.concat(output).toString('utf8') }));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(pnpm(process.argv.slice(2)));
}
