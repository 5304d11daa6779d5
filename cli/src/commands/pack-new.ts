import { relative } from 'node:path';
import { Option, type Command } from 'commander';
import { MAX_NAME_LENGTH, NAME_PATTERN, NAMESPACE_PATTERN } from '@svc/pack-sdk';
import { isJwt } from '../api.js';
import type { Context } from '../context.js';
import { asCliError, CliError, validationError } from '../errors.js';
import { writeNewFolder } from '../scaffold.js';
import { PACK_TEMPLATES, packTemplateFiles, type PackTemplate } from '../pack/templates.js';
import { action } from '../program.js';

export interface NewPackOptions {
  template: PackTemplate;
  namespace?: string;
  author?: string;
  python?: string | boolean;
}

/** The Python version `--python` takes when given without one. */
export const DEFAULT_PYTHON = '3.11';

export function requireName(name: string, what = 'pack'): string {
  if (!NAME_PATTERN.test(name) || name.length > MAX_NAME_LENGTH) {
    throw validationError(`"${name}" is not a valid ${what} name: lowercase letters, digits and hyphens, at most ${MAX_NAME_LENGTH} characters`, { code: 'NAME_INVALID', details: { name } });
  }
  return name;
}

export function requireNamespace(namespace: string): string {
  const bare = namespace.replace(/^@/, '');
  if (!NAMESPACE_PATTERN.test(bare)) {
    throw validationError(`"${namespace}" is not a valid namespace: 2-39 lowercase letters, digits and hyphens, not starting or ending with a hyphen`, { code: 'NAMESPACE_INVALID', details: { namespace } });
  }
  return bare;
}

/** `--namespace`, else the signed-in user's personal namespace (their slug). */
export async function defaultNamespace(ctx: Context, given: string | undefined): Promise<string> {
  if (given) return requireNamespace(given);
  const token = ctx.token();
  if (token && isJwt(token)) {
    try {
      const me = await ctx.api().data<{ tenantSlug?: string }>('GET', '/api/v1/auth/me');
      if (me.tenantSlug) return me.tenantSlug;
    } catch (err) {
      ctx.out.debug(`could not ask the platform for your namespace: ${asCliError(err).message}`);
    }
  }
  throw validationError('Give the namespace to publish under with --namespace (your personal slug or an organization), or sign in first with `svc login`', { code: 'NAMESPACE_REQUIRED' });
}

/** Writes a new pack into `dir`; shared by `pack new` and `project init/add-pack`. */
export async function scaffoldPack(ctx: Context, dir: string, name: string, options: NewPackOptions) {
  if (options.python !== undefined && options.python !== false) {
    const version = options.python === true ? DEFAULT_PYTHON : options.python;
    throw new CliError('general', `Python packs (Python ${version}) do not exist on the platform yet: packs run JavaScript today. Drop --python to make a JavaScript pack.`, { code: 'PYTHON_UNSUPPORTED', details: { python: version } });
  }
  requireName(name);
  const namespace = await defaultNamespace(ctx, options.namespace);
  const files = await writeNewFolder(dir, packTemplateFiles(options.template, { namespace, name, author: options.author }));
  return { path: dir, namespace, name, template: options.template, files };
}

async function newPack(ctx: Context, name: string, options: NewPackOptions): Promise<void> {
  const dir = ctx.path(name);
  const made = await scaffoldPack(ctx, dir, name, options);
  const where = relative(ctx.io.cwd, dir) || '.';
  ctx.out.result(
    made,
    `Made the pack @${made.namespace}/${name} in ${where} (${options.template} template, ${made.files.length} files).\nNext: cd ${where} && svc pack validate && svc pack test && svc pack dev`,
  );
}

export function packTemplateOption(defaultTemplate: PackTemplate = 'basic'): Option {
  return new Option('--template <template>', 'what the pack starts with').choices(PACK_TEMPLATES).default(defaultTemplate);
}

export function registerPackNew(pack: Command): void {
  pack
    .command('new')
    .description('make a new pack in the folder NAME')
    .argument('<name>', 'the pack name (kebab-case): also the folder')
    .addOption(packTemplateOption())
    .option('--namespace <namespace>', 'where it will be published (default: your personal namespace)')
    .option('--author <author>', 'the author, written in package.json and README.md')
    .option('--python [version]', `a Python pack (Python ${DEFAULT_PYTHON}); not available yet`)
    .action(action<NewPackOptions>((ctx, [name], options) => newPack(ctx, name as string, options)));
}
