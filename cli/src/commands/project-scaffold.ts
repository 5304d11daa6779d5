import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { DashboardTemplate, PackTemplate, ProjectTemplate } from '../choices.js';
import type { Context } from '../context.js';
import { validationError } from '../errors.js';
import { templateCommandNames, type CommandNames } from '../pack/templates.js';
import { scaffoldDashboard } from './dashboard-local.js';
import { requireEmptyFolder, writeFiles } from '../scaffold.js';
import { scaffoldPack } from './pack-new.js';

/** Marks a project folder (`svc project init`): what it holds. */
export const PROJECT_FILE = 'svc-project.json';

interface ProjectFile {
  name: string;
  template: ProjectTemplate;
  pack: string | null;
  dashboard: string | null;
}

/** The pack each project template starts with, and the guide written into docs/. */
const PROJECT_KINDS: Record<ProjectTemplate, { pack: PackTemplate; doc: [string, string]; manifest?: (names: CommandNames) => string }> = {
  default: { pack: 'basic', doc: ['docs/README.md', '# Docs\n\nThe pack is in `pack/`; `svc pack dev` there serves it locally.\n'] },
  scheduled: {
    pack: 'advanced',
    doc: [
      'docs/SCHEDULING.md',
      '# Running on a schedule\n\nThe pack proposes a schedule in `pack/pack.yaml` (`schedules:`): every tenant that installs it gets it, paused. Turn it on with one command:\n\n```sh\nsvc schedule list                 # the proposal, paused (proposed_by_pack)\nsvc schedule resume SCHEDULE_ID\nsvc schedule runs SCHEDULE_ID     # its runs, newest first: tasks like any other\n```\n\nOr make one of your own: `svc schedule create NAMESPACE.PACK-report --cron "0 7 * * 1-5" --timezone Europe/Berlin --input \'{"text":"…"}\'`. Cron has five fields or a name such as @hourly; each tick fires once, as a task of yours.\n',
    ],
    manifest: (names) => [
      '# Schedules proposed to every tenant that installs the pack, created paused: `svc schedule resume ID` turns one on.',
      'schedules:',
      `  - command: ${names.report}`,
      '    cron: "0 7 * * 1-5"      # weekdays at 07:00',
      '    timezone: Europe/Berlin',
      '    input: { text: the week ahead, top: 5 }',
      '    description: Weekday morning word count',
      '',
    ].join('\n'),
  },
  mcp: {
    pack: 'basic',
    doc: [
      'docs/MCP.md',
      '# Using the commands from MCP clients\n\nOnce installed, each command is an MCP tool `namespace__pack__command` at `POST /mcp` of the platform (API key as Bearer):\n\n```sh\nsvc mcp list-tools svc\nsvc mcp call svc NAMESPACE__PACK__PACK-hello \'{"name": "Ada"}\'\n```\n\nDescriptions and input schemas in pack.yaml are what models read: keep them precise.\n',
    ],
  },
};

function requireProjectName(name: string): void {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) || name.length < 3 || name.length > 50) {
    throw validationError(`Project name "${name}" must be kebab-case, 3-50 characters`, { code: 'NAME_INVALID', details: { name } });
  }
}

async function readProject(dir: string): Promise<ProjectFile> {
  try {
    return JSON.parse(await readFile(join(dir, PROJECT_FILE), 'utf8')) as ProjectFile;
  } catch {
    throw validationError(`${dir} is not a project directory (no ${PROJECT_FILE}): run \`svc project init NAME\` first`, { code: 'NOT_A_PROJECT', details: { path: dir } });
  }
}

async function writeProject(dir: string, project: ProjectFile): Promise<void> {
  await writeFile(join(dir, PROJECT_FILE), `${JSON.stringify(project, null, 2)}\n`);
}

export async function init(ctx: Context, name: string, options: { dashboard: boolean; template: ProjectTemplate; namespace?: string }): Promise<void> {
  requireProjectName(name);
  const dir = ctx.path(name);
  await requireEmptyFolder(dir);
  const kind = PROJECT_KINDS[options.template];
  const pack = await scaffoldPack(ctx, join(dir, 'pack'), name, { template: kind.pack, namespace: options.namespace });
  if (kind.manifest) await appendFile(join(dir, 'pack', 'pack.yaml'), kind.manifest(templateCommandNames(pack)));
  const dashboard = options.dashboard ? await scaffoldDashboard(ctx, join(dir, 'dashboard'), `${name}-dashboard`.slice(0, 50), { template: 'basic', namespace: pack.namespace }) : null;
  await writeFiles(dir, { [kind.doc[0]]: kind.doc[1] });
  const project: ProjectFile = { name, template: options.template, pack: 'pack', dashboard: dashboard ? 'dashboard' : null };
  await writeProject(dir, project);
  const where = relative(ctx.io.cwd, dir) || '.';
  ctx.out.result({ path: dir, ...project, namespace: pack.namespace }, `Made the project ${name} in ${where}: pack/${dashboard ? ', dashboard/' : ''}, docs/.`);
}

export async function addPack(ctx: Context, options: { template: PackTemplate; namespace?: string }): Promise<void> {
  const project = await readProject(ctx.io.cwd);
  if (project.pack) throw validationError(`The project already has a pack (${project.pack}/)`, { code: 'ALREADY_EXISTS' });
  const made = await scaffoldPack(ctx, join(ctx.io.cwd, 'pack'), project.name, options);
  await writeProject(ctx.io.cwd, { ...project, pack: 'pack' });
  ctx.out.result(made, `Added the pack @${made.namespace}/${made.name} in pack/.`);
}

export async function addDashboard(ctx: Context, options: { template: DashboardTemplate }): Promise<void> {
  const project = await readProject(ctx.io.cwd);
  if (project.dashboard) throw validationError(`The project already has a dashboard (${project.dashboard}/)`, { code: 'ALREADY_EXISTS' });
  const made = await scaffoldDashboard(ctx, join(ctx.io.cwd, 'dashboard'), `${project.name}-dashboard`.slice(0, 50), { template: options.template });
  await writeProject(ctx.io.cwd, { ...project, dashboard: 'dashboard' });
  ctx.out.result(made, `Added the dashboard ${made.name} in dashboard/.`);
}
