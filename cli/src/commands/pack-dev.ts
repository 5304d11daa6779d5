import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import type { Context } from '../context.js';
import { asCliError, authError } from '../errors.js';
import { createDevServer, listen } from '../dev/dev-server.js';
import { DevStorage } from '../dev/dev-storage.js';
import { LocalPack, lineLogger, type LogLevel } from '../dev/local-pack.js';
import { ALWAYS_IGNORED, findPackDir } from '../pack/project.js';
import { kindOf, platformHealth, whoIs } from './auth.js';

export interface DevOptions {
  port?: number;
  host: string;
  persist: boolean;
  watch?: boolean;
  logLevel?: LogLevel;
  docs: boolean;
  docsPort: number;
  skipUpdateCheck?: boolean;
}

/** Where `--persist` keeps the dev server's storage. */
export const DEV_STORAGE_FILE = join('.svc', 'dev-storage.json');
const RELOAD_DEBOUNCE_MS = 150;

/**
 * `pack dev` needs a signed-in user (the pack is developed for a namespace of theirs). A stored
 * token the platform refuses stops here; a platform out of reach does not, so work goes on offline.
 */
async function checkSignIn(ctx: Context, skipUpdateCheck: boolean): Promise<void> {
  const token = ctx.token();
  if (!token) throw authError('`svc pack dev` needs you signed in: run `svc login`', { code: 'NOT_SIGNED_IN' });
  try {
    await whoIs(ctx.client(), kindOf(token));
  } catch (err) {
    const error = asCliError(err);
    if (error.kind === 'auth') throw error;
    ctx.out.warn(`could not check your sign-in with ${ctx.apiUrl} (${error.message}); going on offline`);
    return;
  }
  if (skipUpdateCheck) return;
  const health = await platformHealth(ctx).catch(() => undefined);
  const platform = health?.version;
  if (platform && semver.valid(platform) && semver.gt(platform, ctx.version)) ctx.out.note(`svc ${ctx.version} is older than the platform (${platform}): update the CLI`);
}

/** Calls `reload` shortly after files of the pack change (not its local state or dependencies). */
function watchPack(dir: string, reload: () => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dir, { recursive: true }, (_event, file) => {
    const top = String(file ?? '').split(/[\\/]/)[0] ?? '';
    if (ALWAYS_IGNORED.includes(top)) return;
    clearTimeout(timer);
    timer = setTimeout(reload, RELOAD_DEBOUNCE_MS);
  });
  return watcher;
}

export async function dev(ctx: Context, options: DevOptions): Promise<void> {
  const packDir = await findPackDir(ctx.io.cwd);
  await checkSignIn(ctx, options.skipUpdateCheck || ctx.io.env.skipUpdateCheck);
  const level = options.logLevel ?? (ctx.config.get('dev.log_level') as LogLevel);
  const log = (line: string) => (ctx.out.json ? ctx.out.debug(line) : ctx.io.stderr.write(`${line}\n`));
  const storage = await DevStorage.open(options.persist ? join(packDir, DEV_STORAGE_FILE) : undefined);
  const pack = await LocalPack.open(packDir, { logger: lineLogger(level, log), storage, python: ctx.io.env.python });
  ctx.onExit(() => pack.close());

  const server = createDevServer({ pack, docs: options.docs, log });
  ctx.onExit(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = options.port ?? Number(ctx.config.get('dev.port'));
  const address = await listen(server, port, options.host);
  const base = `http://${options.host}:${address.port}`;
  if (options.docs && options.docsPort !== address.port) {
    const docs = createDevServer({ pack, docs: true, log });
    ctx.onExit(() => new Promise<void>((resolve) => docs.close(() => resolve())));
    await listen(docs, options.docsPort, options.host);
  }

  const watching = options.watch ?? Boolean(ctx.config.get('dev.reload'));
  if (watching) {
    const watcher = watchPack(packDir, () => {
      pack
        .reload()
        .then(() => log(`reloaded @${pack.manifest.pack.namespace}/${pack.manifest.pack.name} ${pack.manifest.pack.version}`))
        .catch((err: unknown) => log(`not reloaded: ${asCliError(err).message}`));
    });
    ctx.onExit(() => watcher.close());
  }
  const { namespace, name, version } = pack.manifest.pack;
  log(`Serving @${namespace}/${name} ${version} on ${base}${options.docs ? ` (docs: ${base}/docs, http://${options.host}:${options.docsPort}/docs)` : ''}${watching ? ', reloading on change' : ''}. Ctrl-C stops.`);
  ctx.out.result({ url: base, pack: { namespace, name, version } });
  // Runs until interrupted; the interruption ends the invocation with exit code 130.
  await new Promise<void>((resolve) => server.once('close', () => resolve()));
}
