import { relative } from 'node:path';
import { MAX_NAME_LENGTH, NAME_PATTERN, NAMESPACE_PATTERN } from '@svc/pack-sdk';
import { DEFAULT_PYTHON, type PackTemplate } from '../choices.js';
import type { Context } from '../context.js';
import { asCliError, CliError, validationError } from '../errors.js';
import { writeNewFolder } from '../scaffold.js';
import { packTemplateFiles } from '../pack/templates.js';
import { pythonPackTemplateFiles } from '../pack/python-templates.js';
import { isJwt } from '../session.js';

export interface NewPackOptions {
  template: PackTemplate;
  namespace?: string;
  author?: string;
  python?: string | boolean;
}

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
      const me = await ctx.client().me();
      if (me.tenantSlug) return me.tenantSlug;
    } catch (err) {
      ctx.out.debug(`could not ask the platform for your namespace: ${asCliError(err).message}`);
    }
  }
  throw validationError('Give the namespace to publish under with --namespace (your personal slug or an organization), or sign in first with `svc login`', { code: 'NAMESPACE_REQUIRED' });
}

/** The Python version `--python` asks for (`3.11`), or undefined for a JavaScript pack. */
function pythonVersionOf(options: NewPackOptions): string | undefined {
  if (options.python === undefined || options.python === false) return undefined;
  const version = options.python === true ? DEFAULT_PYTHON : options.python;
  if (!/^3\.\d{1,2}$/.test(version)) throw validationError(`--python ${version}: give a Python 3 version such as ${DEFAULT_PYTHON}`, { code: 'PYTHON_VERSION_INVALID', details: { python: version } });
  if (options.template !== 'basic') {
    throw new CliError('general', `--template ${options.template}: Python packs start from the basic template`, { code: 'TEMPLATE_UNSUPPORTED', details: { template: options.template, python: version } });
  }
  return version;
}

/** Writes a new pack into `dir`; shared by `pack new` and `project init/add-pack`. */
export async function scaffoldPack(ctx: Context, dir: string, name: string, options: NewPackOptions) {
  const python = pythonVersionOf(options);
  requireName(name);
  const namespace = await defaultNamespace(ctx, options.namespace);
  const input = { namespace, name, author: options.author };
  const files = await writeNewFolder(dir, python ? pythonPackTemplateFiles(input, python) : packTemplateFiles(options.template, input));
  return { path: dir, namespace, name, template: options.template, ...(python ? { runtime: 'python', python } : { runtime: 'node' }), files };
}

export async function newPack(ctx: Context, name: string, options: NewPackOptions): Promise<void> {
  const dir = ctx.path(name);
  const made = await scaffoldPack(ctx, dir, name, options);
  const where = relative(ctx.io.cwd, dir) || '.';
  ctx.out.result(
    made,
    `Made the pack @${made.namespace}/${name} in ${where} (${options.template} template, ${made.files.length} files).\nNext: cd ${where} && svc pack validate && svc pack test && svc pack dev`,
  );
}
