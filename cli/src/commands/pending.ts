import type { Command } from 'commander';
import { CliError } from '../errors.js';
import { action, integerOption } from '../program.js';

/** A command whose platform side has not landed yet: it says so, with exit code 1. */
function notYet(what: string) {
  return action(async () => {
    throw new CliError('general', `${what} is not available on the platform yet`, { code: 'NOT_AVAILABLE' });
  });
}

/** `svc sandbox`: a development sandbox per user. */
export function registerSandboxCommands(program: Command): void {
  const sandbox = program.command('sandbox').description('your development sandbox on the platform (1,000 executions a month, 1 session, 100 MB)');
  sandbox
    .command('start')
    .description('start your sandbox')
    .option('--background', 'return at once instead of waiting for it to be ready')
    .option('--timeout <seconds>', 'stop it after this many seconds without activity', integerOption('--timeout', 60, 86_400), 3600)
    .action(notYet('The development sandbox'));
  sandbox.command('stop').description('stop your sandbox').action(notYet('The development sandbox'));
  sandbox.command('status').description('status, sandbox_id and uptime of your sandbox').action(notYet('The development sandbox'));
}

/** `svc pack sync`: the pack in a folder copied into the sandbox. */
export function registerPackSync(pack: Command): void {
  pack.command('sync').description('copy the pack in a folder into your sandbox').option('--path <path>', 'the pack folder', '.').action(notYet('The development sandbox'));
}

/** `svc dashboard publish/grant/revoke/delete/share`: the dashboards service's side. */
export function registerDashboardPublishing(dashboard: Command): void {
  dashboard.command('publish').description('upload the built dashboard as a new version').option('--visibility <visibility>', 'public, unlisted, organization or private').option('--dry-run', 'check and show what would be uploaded').action(notYet('Publishing dashboards'));
  dashboard.command('grant').description('let an organization see an organization-visibility dashboard').argument('<dashboard>', 'the dashboard slug').argument('<organization>', 'the organization, e.g. @partner').action(notYet('Dashboard grants'));
  dashboard.command('revoke').description('take a grant back').argument('<dashboard>', 'the dashboard slug').argument('<organization>', 'the organization, e.g. @partner').action(notYet('Dashboard grants'));
  dashboard.command('delete').description('delete a dashboard with all its versions').argument('<dashboard>', 'the dashboard slug').option('-f, --force', 'do not ask for confirmation').action(notYet('Deleting dashboards'));
  dashboard.command('share').description('make a link that shows the dashboard without signing in').argument('<dashboard>', 'the dashboard slug').option('--expires <when>', '1d, 7d, 30d or never', 'never').action(notYet('Dashboard share links'));
}
