import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import { parsePackRef } from '@svc/pack-sdk/names';
import type { Context } from '../context.js';
import { CliError, validationError } from '../errors.js';
import { action } from '../program.js';

export interface InstalledPack {
  id: string;
  name: string;
  namespace: string;
  version: string;
  visibility: string;
  commands: number;
  installed_at: string;
  status: string;
}

/** `@ns/pack` or `ns/pack` as the registry names it (`@ns/pack`). */
export function packRef(given: string): { ref: string; namespace: string; name: string } {
  const ref = given.startsWith('@') ? given : `@${given}`;
  const parsed = parsePackRef(ref);
  if (!parsed) throw validationError(`"${given}" is not a pack: write @namespace/name`, { code: 'PACK_INVALID', details: { pack: given } });
  return { ref, ...parsed };
}

export async function installedPacks(ctx: Context): Promise<InstalledPack[]> {
  return ((await dataOf(ctx.client(ctx.registryUrl).api.GET('/api/v1/packs'))) as { packs: InstalledPack[] }).packs;
}

async function install(ctx: Context, pack: string, options: { version: string; force?: boolean; deps: boolean }): Promise<void> {
  const { ref, namespace, name } = packRef(pack);
  // semver is loaded here, not by every command that names a pack (`secrets`, `list`).
  const { default: semver } = await import('semver');
  if (options.version !== 'latest' && !semver.valid(options.version)) throw validationError(`--version must be latest or a semver version, not "${options.version}"`, { code: 'VERSION_INVALID' });
  if (!options.deps) ctx.out.debug('--no-deps: packs declare no dependencies on this platform yet, so there is nothing to skip');
  const current = (await installedPacks(ctx)).find((p) => p.namespace === namespace && p.name === name);
  if (current && options.version !== 'latest' && semver.lt(options.version, current.version) && !options.force) {
    const go = await ctx.confirm(`${ref} ${current.version} is active; go back to ${options.version}?`);
    if (!go) throw new CliError('general', 'Not installed', { code: 'CANCELLED' });
  }
  const progress = ctx.out.progress(`Installing ${ref} ${options.version}`);
  const data = (await dataOf(ctx.client(ctx.registryUrl).api.POST('/api/v1/packs/install', { body: { name: ref, version: options.version } }))) as { pack: { id: string; name: string; version: string; commands: string[] }; message: string };
  progress.succeed(`Installed ${ref} ${data.pack.version}`);
  ctx.out.result({ ...data, previous_version: current?.version ?? null }, `${data.message}\nCommands: ${data.pack.commands.map((c) => `${namespace}.${c}`).join(', ')}`);
}

async function uninstall(ctx: Context, pack: string, options: { force?: boolean }): Promise<void> {
  const { ref, namespace, name } = packRef(pack);
  const installed = (await installedPacks(ctx)).find((p) => p.namespace === namespace && p.name === name);
  if (!installed) throw new CliError('general', `${ref} is not installed in any of your tenants`, { code: 'NOT_FOUND', details: { pack: ref } });
  if (!options.force && !(await ctx.confirm(`Remove ${ref} with all its versions, commands and grants?`))) throw new CliError('general', 'Not uninstalled', { code: 'CANCELLED' });
  const data = (await dataOf(ctx.client(ctx.registryUrl).api.DELETE('/api/v1/packs/{pack_id}', { params: { path: { pack_id: installed.id } } }))) as { message: string };
  ctx.out.result({ uninstalled: true, pack: ref, id: installed.id, version: installed.version, message: data.message }, data.message);
}

interface CatalogCommand {
  namespace: string;
  name: string;
  pack: string;
  description: string;
}

async function commandsOf(ctx: Context, namespace: string): Promise<CatalogCommand[]> {
  const all: CatalogCommand[] = [];
  for (let page = 1; ; page += 1) {
    const data = (await dataOf(ctx.client(ctx.registryUrl).api.GET('/api/v1/commands', { params: { query: { namespace, page, limit: 100 } } }))) as { commands: CatalogCommand[]; pages: number };
    all.push(...data.commands);
    if (page >= data.pages) return all;
  }
}

async function list(ctx: Context, options: { commands?: boolean }): Promise<void> {
  const packs = await installedPacks(ctx);
  const rows = [];
  for (const pack of packs) {
    const commands = options.commands ? (await commandsOf(ctx, pack.namespace)).filter((c) => c.pack === pack.name).map((c) => ({ name: c.name, description: c.description })) : undefined;
    rows.push({ ...pack, ref: `@${pack.namespace}/${pack.name}`, ...(commands ? { command_list: commands } : {}) });
  }
  const text =
    rows.length === 0
      ? 'No packs installed.'
      : rows
          .map((row) => {
            const head = `${row.ref.padEnd(32)} ${row.version.padEnd(10)} ${row.visibility.padEnd(12)} ${row.commands} command${row.commands === 1 ? '' : 's'}`;
            return row.command_list ? [head, ...row.command_list.map((c) => `    ${row.namespace}.${c.name}  ${c.description}`)].join('\n') : head;
          })
          .join('\n');
  ctx.out.result({ packs: rows }, text);
}

export function registerPackCommands(program: Command): void {
  program
    .command('install')
    .description('make a published version of a pack active (its commands become runnable)')
    .argument('<pack>', 'the pack, as @namespace/name')
    .option('--version <version>', 'the version to make active', 'latest')
    .option('--force', 'go back to an older version without asking')
    .option('--no-deps', 'do not install the packs it depends on')
    .action(action<{ version: string; force?: boolean; deps: boolean }>((ctx, [pack], options) => install(ctx, pack as string, options)));

  program
    .command('uninstall')
    .description('remove a pack: every version, command and grant (developer mode)')
    .argument('<pack>', 'the pack, as @namespace/name')
    .option('--force', 'do not ask for confirmation')
    .action(action<{ force?: boolean }>((ctx, [pack], options) => uninstall(ctx, pack as string, options)));

  program
    .command('list')
    .description('the packs installed in your tenants')
    .option('--json', 'same as --output json')
    .option('--commands', 'list the commands of each pack too')
    .action(action<{ commands?: boolean }>((ctx, _args, options) => list(ctx, options)));
}
