// Runs the pinned pnpm, fetched from the npm registry when it is not installed,
// so that a machine with only Node can build and test the workspace.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { packageManager } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const version = packageManager.split('@')[1];

export function pnpm(args, options = {}) {
  const local = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  const [cmd, prefix] =
    local.status === 0 && local.stdout.trim() === version ? ['pnpm', []] : ['npx', ['--yes', `pnpm@${version}`]];
  const result = spawnSync(cmd, [...prefix, ...args], { stdio: 'inherit', ...options });
  return result.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(pnpm(process.argv.slice(2)));
}
