import type { Context } from '../context.js';
import { findPackDir } from '../pack/project.js';
import { buildPackage } from './pack-build.js';
import { mb, syncPackage } from './sandbox.js';

/** `svc pack sync`: the pack in a folder, built in memory, put into the running sandbox. */
export async function sync(ctx: Context, options: { path: string }): Promise<void> {
  const { manifest, tarball } = await buildPackage(ctx, await findPackDir(ctx.path(options.path)), false);
  const synced = await syncPackage(ctx, manifest, tarball);
  const { namespace, name, version, commands } = synced.pack;
  ctx.out.result(synced, `@${namespace}/${name} ${version} is in your sandbox (${mb(synced.storage_bytes)} used): svc pack exec ${namespace}/${commands[0] ?? 'COMMAND'} runs its commands there.`);
}
