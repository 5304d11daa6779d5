import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import type { SandboxView as PlatformSandboxView, SyncedPackView } from '@svc/execution';
import type { PackManifest } from '@svc/pack-sdk';
import type { Context } from '../context.js';
import { asCliError } from '../errors.js';
import { action, integerOption } from '../program.js';

export type SyncedPack = SyncedPackView;

/** What the platform answers for a sandbox, and what a start or a stop adds to it. */
export type SandboxView = PlatformSandboxView & { created?: boolean; warning?: string; stopped?: boolean };

/** A foreground session is touched this often (at most), so that it does not time out while the CLI holds it. */
const KEEP_ALIVE_MAX_MS = 5 * 60_000;

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h ? `${h}h` : '', h || m ? `${m}m` : '', `${s}s`].filter(Boolean).join(' ');
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`;

function describe(view: SandboxView): string {
  const { quotas: q, usage: u } = view;
  const packs = view.packs.map((p) => `  @${p.namespace}/${p.name} ${p.version}: ${p.commands.join(', ')}`);
  const quotas = [
    `Executions this month: ${u.executions_this_month} of ${q.executions_per_month.toLocaleString('en-US')} (more from ${u.executions_reset_at}). Storage: ${mb(u.storage_bytes)} of ${mb(q.storage_bytes)}. ${q.concurrent_sessions} session at a time.`,
    ...(packs.length ? ['Synced packs:', ...packs] : []),
  ].join('\n');
  if (view.status === 'running') {
    return `Sandbox ${view.sandbox_id} running, up ${duration(view.uptime)}; stops after ${view.timeout} s without activity (at ${view.expires_at}).\n${quotas}`;
  }
  if (!view.sandbox_id) return `No sandbox started yet (svc sandbox start).\n${quotas}`;
  return `Sandbox ${view.sandbox_id} stopped${view.stopped_at ? ` at ${view.stopped_at}` : ''}.\n${quotas}`;
}

async function start(ctx: Context, options: { background?: boolean; timeout: number }): Promise<void> {
  const svc = ctx.client();
  const started = (await dataOf(svc.api.POST('/api/v1/sandbox', { body: { timeout: options.timeout } }))) as SandboxView;
  if (started.warning) ctx.out.warn(started.warning);
  ctx.out.result(started, describe(started));
  if (options.background) return;

  // In the foreground the session lives as long as this invocation: it is kept active, and the
  // session this invocation started is stopped when it ends (Ctrl-C, exit code 130).
  ctx.out.note(`${describe(started)}\nCtrl-C stops it.`);
  const every = Math.min(KEEP_ALIVE_MAX_MS, (started.timeout * 1000) / 2);
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const keepAlive = () => {
    if (ended) return;
    timer = setTimeout(() => {
      dataOf(svc.api.POST('/api/v1/sandbox', { body: {} }))
        .catch((err: unknown) => ctx.out.warn(`could not keep the sandbox active: ${asCliError(err).message}`))
        .finally(keepAlive);
    }, every);
  };
  keepAlive();
  ctx.onExit(async () => {
    ended = true;
    clearTimeout(timer);
    if (started.created) await dataOf(svc.api.DELETE('/api/v1/sandbox'));
  });
  await new Promise<never>(() => {});
}

/** Your sandbox as the platform sees it. */
export async function sandboxStatus(ctx: Context): Promise<SandboxView> {
  return (await dataOf(ctx.client().api.GET('/api/v1/sandbox'))) as SandboxView;
}

/** Puts a built package into the running sandbox. */
export async function syncPackage(ctx: Context, manifest: PackManifest, tarball: Buffer): Promise<{ pack: SyncedPack; created: boolean; storage_bytes: number }> {
  const form = new FormData();
  form.append('package', new Blob([tarball], { type: 'application/gzip' }), `${manifest.pack.name}-${manifest.pack.version}.tar.gz`);
  const progress = ctx.out.progress(`Syncing @${manifest.pack.namespace}/${manifest.pack.name} into your sandbox`);
  try {
    const synced = await ctx.client().upload<{ pack: SyncedPack; created: boolean; storage_bytes: number }>('PUT', '/api/v1/sandbox/packs', form);
    progress.succeed(`Synced @${manifest.pack.namespace}/${manifest.pack.name} ${manifest.pack.version}`);
    return synced;
  } catch (err) {
    progress.fail();
    throw err;
  }
}

async function stop(ctx: Context): Promise<void> {
  const view = (await dataOf(ctx.client().api.DELETE('/api/v1/sandbox'))) as SandboxView;
  ctx.out.result(view, view.stopped ? `Stopped sandbox ${view.sandbox_id}.` : 'Your sandbox was not running.');
}

async function status(ctx: Context): Promise<void> {
  const view = await sandboxStatus(ctx);
  ctx.out.result(view, describe(view));
}

/** `svc sandbox`: your development sandbox on the platform. */
export function registerSandboxCommands(program: Command): void {
  const sandbox = program.command('sandbox').description('your development sandbox on the platform (1,000 executions a month, 1 session, 100 MB)');
  sandbox
    .command('start')
    .description('start your sandbox and hold it until Ctrl-C (or --background)')
    .option('--background', 'start it and return at once; it stops after --timeout without activity or with svc sandbox stop')
    .option('--timeout <seconds>', 'stop it after this many seconds without activity', integerOption('--timeout', 60, 86_400), 3600)
    .action(action<{ background?: boolean; timeout: number }>((ctx, _args, options) => start(ctx, options)));
  sandbox.command('stop').description('stop your sandbox').action(action((ctx) => stop(ctx)));
  sandbox.command('status').description('status, sandbox_id and uptime of your sandbox').action(action((ctx) => status(ctx)));
}
