import { join } from 'node:path';
import { parseManifest, PackFormatError, type CommandManifest, type PackManifest } from '@svc/pack-sdk';
import type { Context } from '../context.js';
import { asCliError, CliError, validationError } from '../errors.js';
import { DevStorage } from '../dev/dev-storage.js';
import { LocalPack, lineLogger } from '../dev/local-pack.js';
import { recordRun } from '../dev/stats.js';
import { findPackDir, readManifestText } from '../pack/project.js';
import { DEV_STORAGE_FILE } from './pack-dev.js';
import { buildPackage } from './pack-build.js';
import { commandDetail, parseCommandRef, parseInputArgs, runOnPlatform, type CommandRef } from './run.js';
import { sandboxStatus, syncPackage, type SandboxView } from './sandbox.js';

export interface ExecOptions {
  arg: string[];
  timeout: number;
}

/** `--arg key=value` (repeatable) as `--key=value` arguments. */
function argsOf(pairs: string[]): string[] {
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw validationError(`--arg ${pair}: write key=value`, { code: 'ARGUMENT_INVALID', details: { argument: pair } });
    return `--${pair.slice(0, at)}=${pair.slice(at + 1)}`;
  });
}

async function localManifest(ctx: Context): Promise<{ packDir: string; manifest: PackManifest }> {
  const packDir = await findPackDir(ctx.io.cwd);
  try {
    return { packDir, manifest: parseManifest(await readManifestText(packDir)) };
  } catch (err) {
    if (err instanceof PackFormatError) throw validationError(err.message, { code: err.code, details: err.details });
    throw err;
  }
}

/** Your sandbox when it is running; undefined when it is not, or cannot be asked (offline, signed out). */
async function runningSandbox(ctx: Context): Promise<SandboxView | undefined> {
  if (!ctx.token()) return undefined;
  try {
    const sandbox = await sandboxStatus(ctx);
    return sandbox.status === 'running' ? sandbox : undefined;
  } catch (err) {
    ctx.out.debug(`sandbox not asked: ${asCliError(err).message}`);
    return undefined;
  }
}

/** The folder's pack run in the sandbox, synced first when the sandbox holds other bytes of it. */
async function execInSandbox(ctx: Context, sandbox: SandboxView, packDir: string, ref: CommandRef, input: Record<string, unknown>): Promise<void> {
  const built = await buildPackage(ctx, packDir, false);
  if (!sandbox.packs.some((pack) => pack.sha256 === built.sha256)) await syncPackage(ctx, built.manifest, built.tarball);
  const label = `${ref.namespace}/${ref.name}`;
  try {
    const ran = await runOnPlatform(ctx, ref, input, {}, 'sandbox');
    await recordRun(packDir, label, ran.execution.duration_ms ?? 0, true);
    ctx.out.result({ command: label, where: 'sandbox', sandbox_id: sandbox.sandbox_id, result: ran.result, execution: ran.execution, task_id: ran.task_id }, JSON.stringify(ran.result, null, 2));
  } catch (err) {
    if (err instanceof CliError && err.kind === 'command') await recordRun(packDir, label, 0, false);
    throw err;
  }
}

/**
 * Runs one command of the pack in this folder, once: in your sandbox when it is running (the
 * folder synced into it first when it changed), else locally in the platform's runner (the
 * storage of `svc pack dev --persist`). Either run joins `svc stats`.
 */
export async function exec(ctx: Context, target: string, options: ExecOptions): Promise<void> {
  const ref = parseCommandRef(target);
  const { packDir, manifest } = await localManifest(ctx);
  if (ref.namespace !== manifest.pack.namespace) {
    throw new CliError('general', `The pack in ${packDir} is in namespace ${manifest.pack.namespace}, not ${ref.namespace}`, { code: 'NOT_FOUND' });
  }
  const command = manifest.commands.find((c) => c.name === ref.name);
  const input = parseInputArgs(argsOf(options.arg), (command?.input_schema as { properties?: Record<string, { type?: string }> } | undefined)?.properties);
  const sandbox = await runningSandbox(ctx);
  if (sandbox) return execInSandbox(ctx, sandbox, packDir, ref, input);
  const log = (line: string) => (ctx.out.json ? ctx.out.debug(line) : ctx.io.stderr.write(`${line}\n`));
  const pack = await LocalPack.open(packDir, { logger: lineLogger('info', log), storage: await DevStorage.open(join(packDir, DEV_STORAGE_FILE)), python: ctx.io.env.python });
  ctx.onExit(() => pack.close());
  const started = performance.now();
  const label = `${ref.namespace}/${ref.name}`;
  try {
    const run = await pack.run(ref.name, input, { timeoutMs: options.timeout * 1000 });
    await recordRun(packDir, label, run.durationMs, true);
    ctx.out.result({ command: label, where: 'local', result: run.value, execution: { duration_ms: Math.round(run.durationMs), status: 'completed' } }, JSON.stringify(run.value, null, 2));
  } catch (err) {
    if (err instanceof CliError && err.kind === 'command') await recordRun(packDir, label, performance.now() - started, false);
    throw err;
  }
}

function describeLine(command: CommandManifest): string {
  return `${command.name.padEnd(24)} ${command.queue.padEnd(7)} ${String(command.timeout).padStart(5)} s  ${command.description}`;
}

export async function listCommands(ctx: Context): Promise<void> {
  const { manifest } = await localManifest(ctx);
  const commands = manifest.commands.map(({ name, description, queue, timeout, tags }) => ({ name, description, queue, timeout, tags }));
  ctx.out.result({ pack: manifest.pack, commands }, manifest.commands.map(describeLine).join('\n'));
}

/** A command of the pack in this folder, or (`namespace/name`) of the platform's catalog. */
export async function describe(ctx: Context, name: string): Promise<void> {
  if (name.includes('/') || name.includes('.')) {
    const ref = parseCommandRef(name);
    const local = await localManifest(ctx).catch(() => undefined);
    if (local?.manifest.pack.namespace !== ref.namespace) {
      const detail = await commandDetail(ctx, ref);
      ctx.out.result({ source: 'platform', ...detail }, describeText(detail as unknown as CommandManifest));
      return;
    }
    name = ref.name;
  }
  const { manifest } = await localManifest(ctx);
  const command = manifest.commands.find((c) => c.name === name);
  if (!command) throw new CliError('general', `No command "${name}" in pack.yaml; \`svc pack list-commands\` lists them`, { code: 'NOT_FOUND' });
  ctx.out.result({ source: 'local', namespace: manifest.pack.namespace, ...command }, describeText(command));
}

function describeText(command: Pick<CommandManifest, 'name' | 'description' | 'timeout' | 'queue' | 'input_schema' | 'examples'>): string {
  return [
    `${command.name}: ${command.description || '(no description)'}`,
    `timeout ${command.timeout} s${command.queue ? `, queue ${command.queue}` : ''}`,
    'input schema:',
    JSON.stringify(command.input_schema, null, 2),
    ...(command.examples?.length ? ['examples:', ...command.examples.map((e) => `  ${e.description}: ${JSON.stringify(e.input)}`)] : []),
  ].join('\n');
}
