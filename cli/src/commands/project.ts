import { Option, type Command } from 'commander';
import { DASHBOARD_TEMPLATES, PROJECT_TEMPLATES, type DashboardTemplate, type PackTemplate, type ProjectTemplate } from '../choices.js';
import { action } from '../program.js';
import { packTemplateOption } from './pack.js';

/** `svc project …`; the work is in `project-scaffold.ts`, loaded when a command runs. */
export function registerProjectCommands(program: Command): void {
  const project = program.command('project').description('a folder holding a pack, a dashboard and their docs');
  project
    .command('init')
    .description('make a project in the folder NAME: pack/, optionally dashboard/, docs/')
    .argument('<name>', 'the project name (kebab-case, 3-50 characters)')
    .option('--with-dashboard', 'add a dashboard too')
    .option('--no-dashboard', 'no dashboard (the default)')
    .addOption(new Option('--template <template>', 'what kind of project').choices(PROJECT_TEMPLATES).default('default'))
    .option('--namespace <namespace>', 'where it will be published (default: your personal namespace)')
    .action(
      action<{ withDashboard?: boolean; dashboard?: boolean; template: ProjectTemplate; namespace?: string }>(async (ctx, [name], options) =>
        (await import('./project-scaffold.js')).init(ctx, name as string, { dashboard: Boolean(options.withDashboard) && options.dashboard !== false, template: options.template, namespace: options.namespace }),
      ),
    );
  project
    .command('add-pack')
    .description('add a pack to the project in this folder')
    .addOption(packTemplateOption())
    .option('--namespace <namespace>', 'where it will be published (default: your personal namespace)')
    .action(action<{ template: PackTemplate; namespace?: string }>(async (ctx, _args, options) => (await import('./project-scaffold.js')).addPack(ctx, options)));
  project
    .command('add-dashboard')
    .description('add a dashboard to the project in this folder')
    .addOption(new Option('--template <template>', 'what it starts with').choices(DASHBOARD_TEMPLATES).default('basic'))
    .action(action<{ template: DashboardTemplate }>(async (ctx, _args, options) => (await import('./project-scaffold.js')).addDashboard(ctx, options)));
}
