// Runs the pinned pnpm, fetched from the npm registry when it is not installed,
// so that a machine with only Node can build and test the workspace.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { packageManager } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const version = packageManager.split('@')[1];

// pnpm's own settings, given on its command line rather than in `.npmrc`: npm reads that file
// too, and warns about every key it does not know on each `npm start`, `npm test` and `npx`.
// A flat node_modules: bundled service entry points resolve third-party packages from the
// repository root, the same way in every service.
export const PNPM_SETTINGS = ['--config.node-linker=hoisted'];

export function pnpm(args, options = {}) {
  const local = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  const [cmd, prefix] =
    local.status === 0 && local.stdout.trim() === version ? ['pnpm', []] : ['npx', ['--yes', `pnpm@${version}`]];
  const result = spawnSync(cmd, [...prefix, ...PNPM_SETTINGS, ...args], { stdio: 'inherit', ...options });
  return result.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(pnpm(process.argv.slice(2)));
}
