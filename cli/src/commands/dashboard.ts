import { Option, type Command } from 'commander';
import { DASHBOARD_TEMPLATES, DASHBOARD_VISIBILITIES, SHARE_EXPIRIES, type ShareExpiry } from '../choices.js';
import { action, booleanOption, integerOption } from '../program.js';
import type { NewDashboardOptions } from './dashboard-local.js';

/**
 * `svc dashboard …`. Each action loads the module that does its work when it runs: making,
 * bundling and checking a dashboard locally (`dashboard-local.ts`), or publishing and sharing it
 * (`dashboard-publish.ts`).
 */
export function registerDashboardCommands(program: Command): void {
  const dashboard = program.command('dashboard').description('make, check, build and publish dashboards (browser modules mounted by the platform)');
  dashboard
    .command('new')
    .description('make a new dashboard in the folder NAME')
    .argument('<name>', 'the dashboard name (kebab-case, 3-50 characters): also the folder')
    .addOption(new Option('--template <template>', 'what it starts with').choices(DASHBOARD_TEMPLATES).default('basic'))
    .option('--namespace <namespace>', 'the scope it is published under (default: your personal namespace)')
    .option('--author <author>', 'the author, written in package.json and README.md')
    .action(action<NewDashboardOptions>(async (ctx, [name], options) => (await import('./dashboard-local.js')).newDashboard(ctx, name as string, options)));
  dashboard
    .command('dev')
    .description('serve the dashboard in this folder, rebuilt on change, the platform API forwarded')
    .option('--port <port>', 'port to listen on', integerOption('--port', 0, 65535), 3000)
    .option('--api-url <url>', 'the platform to forward /api to (default: the configured one)')
    .option('--open [enabled]', 'open it in a browser', booleanOption('--open'), true)
    .option('--no-open', 'do not open a browser')
    .action(action<{ port: number; apiUrl?: string; open: boolean }>(async (ctx, _args, options) => (await import('./dashboard-local.js')).dev(ctx, options)));
  dashboard
    .command('validate')
    .description('check dashboard.json, dist/main.js (mount and unmount) and the bundle limits (50 MB, 500 files)')
    .argument('[path]', 'the dashboard folder', '.')
    .action(action(async (ctx, [path]) => (await import('./dashboard-local.js')).validate(ctx, path as string)));
  dashboard
    .command('build')
    .description('bundle the dashboard with esbuild into one self-contained dist/main.js')
    .option('--output <dir>', 'where to write main.js, from the dashboard folder', './dist')
    .option('--minify [enabled]', 'minify the bundle', booleanOption('--minify'), true)
    .option('--no-minify', 'do not minify')
    .option('--sourcemap [enabled]', 'inline a source map', booleanOption('--sourcemap'), false)
    .action(action<{ output?: string; minify: boolean; sourcemap: boolean }>(async (ctx, _args, options) => (await import('./dashboard-local.js')).dashboardBuild(ctx, options)));
  dashboard
    .command('publish')
    .description('upload the built dashboard as a new version (registered on its first publish)')
    .addOption(new Option('--visibility <visibility>', 'on the first publish (default: dashboard.json, else private)').choices(DASHBOARD_VISIBILITIES))
    .option('--dry-run', 'check and show what would be uploaded')
    .action(action<{ visibility?: string; dryRun?: boolean }>(async (ctx, _args, options) => (await import('./dashboard-publish.js')).publish(ctx, options)));
  dashboard
    .command('grant')
    .description('let an organization see an organization-visibility dashboard')
    .argument('<dashboard>', 'the dashboard slug')
    .argument('<organization>', 'the organization, e.g. @partner')
    .action(action(async (ctx, [slug, organization]) => (await import('./dashboard-publish.js')).grant(ctx, slug as string, organization as string, false)));
  dashboard
    .command('revoke')
    .description('take a grant back')
    .argument('<dashboard>', 'the dashboard slug')
    .argument('<organization>', 'the organization, e.g. @partner')
    .action(action(async (ctx, [slug, organization]) => (await import('./dashboard-publish.js')).grant(ctx, slug as string, organization as string, true)));
  dashboard
    .command('delete')
    .description('delete a dashboard with all its versions')
    .argument('<dashboard>', 'the dashboard slug')
    .option('-f, --force', 'do not ask for confirmation')
    .action(action<{ force?: boolean }>(async (ctx, [slug], options) => (await import('./dashboard-publish.js')).remove(ctx, slug as string, options)));
  dashboard
    .command('share')
    .description('make a link that shows the dashboard without signing in')
    .argument('<dashboard>', 'the dashboard slug')
    .addOption(new Option('--expires <when>', 'how long the link works').choices(SHARE_EXPIRIES).default('never'))
    .action(action<{ expires: ShareExpiry }>(async (ctx, [slug], options) => (await import('./dashboard-publish.js')).share(ctx, slug as string, options)));
}
