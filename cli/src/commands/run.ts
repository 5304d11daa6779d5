import { dataOf, type SvcClient } from '@svc/client';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { asCliError, CliError, validationError } from '../errors.js';
import { action } from '../program.js';

export interface CommandRef {
  namespace: string;
  name: string;
}

/** `namespace.name` (or `namespace/name`, `@namespace/name`) split in two. */
export function parseCommandRef(ref: string): CommandRef {
  const match = /^@?([a-z0-9][a-z0-9-]*)[./]([a-z0-9-]+)$/.exec(ref);
  if (!match) throw validationError(`"${ref}" is not a command: write namespace.name, e.g. acme.echo`, { code: 'COMMAND_INVALID', details: { command: ref } });
  return { namespace: match[1]!, name: match[2]! };
}

type Property = { type?: string | string[] };

/** A `--key=value` value as the input schema types it; JSON where the schema says nothing. */
function coerce(raw: string, property: Property | undefined): unknown {
  const types = property?.type === undefined ? [] : ([] as string[]).concat(property.type);
  if (types.includes('string')) return raw;
  if ((types.includes('integer') || types.includes('number')) && raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * The input of a run from `--key=value`, `--key value`, `--flag` (true) and `--no-flag` (false)
 * arguments, typed by the command's input schema.
 */
export function parseInputArgs(args: string[], properties: Record<string, Property> = {}): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const match = /^--([^=\s]+)(?:=([\s\S]*))?$/.exec(arg);
    if (!match) throw validationError(`"${arg}" is not an argument: write --key=value`, { code: 'ARGUMENT_INVALID', details: { argument: arg } });
    const [, key, inline] = match as unknown as [string, string, string | undefined];
    if (inline !== undefined) {
      input[key] = coerce(inline, properties[key]);
    } else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) {
      input[key] = coerce(args[i + 1]!, properties[key]);
      i += 1;
    } else if (key.startsWith('no-') && !(key in properties)) {
      input[key.slice(3)] = false;
    } else {
      input[key] = true;
    }
  }
  return input;
}

/** Codes of a run's own failure (the pack's code threw, ran out of time, was cancelled): exit code 10. */
const COMMAND_FAILURES = new Set(['INTEGRATION_ERROR', 'TIMEOUT', 'TASK_REVOKED', 'COMMAND_FAILED']);

/**
 * A failed run answer as exit code 10 when the pack's command failed, else as it is. Execution
 * answers a command's own failure 502 INTEGRATION_ERROR; a service out of reach is the gateway's
 * 503, which stays a server error.
 */
export function asCommandFailure(err: unknown): unknown {
  const failure = asCliError(err);
  if (!failure.code || !COMMAND_FAILURES.has(failure.code)) return failure;
  return new CliError('command', failure.message, { code: failure.code, details: failure.details });
}

/** A line a pack's code logged with `ctx.log` during the run, as the platform keeps it. */
export interface RunLogLine {
  at: string;
  level: string;
  message: string;
}

export interface Task {
  task_id: string;
  status: 'pending' | 'started' | 'success' | 'failure' | 'timeout' | 'revoked';
  result: unknown;
  error: { message: string; type: string } | null;
  started_at?: string | null;
  completed_at?: string | null;
  logs?: RunLogLine[];
}

const TERMINAL = new Set(['success', 'failure', 'timeout', 'revoked']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task of the caller's, as `GET /tasks/{id}` answers it. */
export async function fetchTask(svc: SvcClient, taskId: string): Promise<Task> {
  return (await svc.tasks.get(taskId)) as Task;
}

/** A task that ended without success, as exit code 10. */
export function taskFailure(task: Task, label: string): CliError {
  return new CliError('command', `${label} ended in ${task.status}: ${task.error?.message ?? 'no message'}`, { code: `TASK_${task.status.toUpperCase()}`, details: { task_id: task.task_id, status: task.status, error: task.error, ...(task.logs ? { logs: task.logs } : {}) } });
}

/**
 * Polls a task until it ends (or `timeoutMs` passes: exit 1 `WAIT_TIMEOUT`, the task goes on),
 * showing its status on a terminal; a task that did not succeed is exit code 10.
 */
export async function waitForTask(ctx: Context, svc: SvcClient, taskId: string, label: string, timeoutMs = Number.POSITIVE_INFINITY): Promise<Task> {
  const progress = ctx.out.progress(`${label}: pending (task ${taskId})`);
  const deadline = Date.now() + timeoutMs;
  let delay = 200;
  for (;;) {
    const task = await fetchTask(svc, taskId);
    if (TERMINAL.has(task.status)) {
      if (task.status === 'success') {
        progress.succeed(`${label}: done`);
        return task;
      }
      progress.fail(`${label}: ${task.status}`);
      throw taskFailure(task, label);
    }
    if (Date.now() + delay > deadline) {
      progress.fail(`${label}: still ${task.status}`);
      throw new CliError('general', `Task ${taskId} is still ${task.status} after the wait; it goes on: \`svc task wait ${taskId}\` follows it again`, { code: 'WAIT_TIMEOUT', details: { task_id: taskId, status: task.status } });
    }
    progress.update(`${label}: ${task.status} (task ${taskId})`);
    await sleep(delay);
    delay = Math.min(delay * 2, 2000);
  }
}

/** A run's log lines as text, for stderr: `09:15:02 info  message`. */
export function logText(lines: RunLogLine[]): string {
  return lines.map((line) => `${line.at.slice(11, 19)} ${line.level.padEnd(5)} ${line.message}`).join('\n');
}

/** Where a run goes: the platform's installed commands, or the packs synced into your sandbox. */
export type RunTarget = 'platform' | 'sandbox';

/** Submits a run: the answer of a synchronous run, or the task it became (202). */
async function submitRun(svc: SvcClient, ref: CommandRef, input: Record<string, unknown>, query: { logs?: 'true'; async?: 'true' }, target: RunTarget) {
  const params = { path: ref, query };
  const call = target === 'sandbox' ? svc.api.POST('/api/v1/sandbox/commands/{namespace}/{name}', { params, body: input }) : svc.api.POST('/api/v1/commands/{namespace}/{name}', { params, body: input });
  const body: Record<string, any> = await dataOf(call);
  return { status: (await call).response.status, body };
}

/**
 * Runs a command on the platform (or in your sandbox) and waits for its result, as a task when
 * it becomes one. With `logs`, the platform answers the lines the run logged too.
 */
export async function runOnPlatform(ctx: Context, ref: CommandRef, input: Record<string, unknown>, options: { logs?: boolean }, target: RunTarget = 'platform') {
  const svc = ctx.client();
  const label = `${ref.namespace}.${ref.name}`;
  const reply = await submitRun(svc, ref, input, options.logs ? { logs: 'true' } : {}, target).catch((err: unknown) => {
    throw asCommandFailure(err);
  });
  const data = reply.body;
  if (reply.status !== 202) return { command: label, result: data.result, execution: data.execution, task_id: null, ...(options.logs ? { logs: (data.logs ?? []) as RunLogLine[] } : {}) };
  ctx.out.debug(`task ${data.task_id} submitted`);
  const task = await waitForTask(ctx, svc, data.task_id, label);
  const durationMs = task.started_at && task.completed_at ? Date.parse(task.completed_at) - Date.parse(task.started_at) : null;
  return { command: label, result: task.result, execution: { duration_ms: durationMs, status: 'completed' }, task_id: task.task_id, ...(options.logs ? { logs: task.logs ?? [] } : {}) };
}

/** `svc run --async`: the task is made and its id answered at once; `svc task wait` follows it. */
async function submit(ctx: Context, ref: CommandRef, input: Record<string, unknown>): Promise<void> {
  const label = `${ref.namespace}.${ref.name}`;
  const data = (await submitRun(ctx.client(), ref, input, { async: 'true' }, 'platform')).body as { task_id: string; status: string; status_url: string };
  ctx.out.result({ command: label, task_id: data.task_id, status: data.status, status_url: data.status_url }, `Task ${data.task_id} (${label}) is ${data.status}.\nNext: svc task wait ${data.task_id}   (or svc task get / logs / cancel ${data.task_id})`);
}

/** A command's description and input schema, from the platform's catalog. */
export async function commandDetail(ctx: Context, ref: CommandRef) {
  return dataOf(ctx.client().api.GET('/api/v1/commands/{namespace}/{name}', { params: { path: ref } }));
}

/** Prints a failed run's logs (they came in its error's details) before the failure is reported. */
function showLogsOf(ctx: Context, err: unknown): never {
  const logs = err instanceof CliError ? (err.details?.logs as RunLogLine[] | undefined) : undefined;
  if (logs && logs.length > 0) ctx.out.note(logText(logs));
  throw err;
}

async function run(ctx: Context, commandArg: string, args: string[], options: { raw?: boolean; async?: boolean; logs?: boolean }): Promise<void> {
  const ref = parseCommandRef(commandArg);
  const detail = await commandDetail(ctx, ref);
  const input = parseInputArgs(args, (detail.input_schema as { properties?: Record<string, Property> } | undefined)?.properties);
  if (options.async) return submit(ctx, ref, input);
  const outcome = await runOnPlatform(ctx, ref, input, options).catch((err: unknown) => (options.logs ? showLogsOf(ctx, err) : Promise.reject(err)));
  // The logs go to stderr, so that stdout stays the result alone.
  if (outcome.logs && outcome.logs.length > 0) ctx.out.note(logText(outcome.logs));
  const text = options.raw ? JSON.stringify(outcome.result) : JSON.stringify(outcome.result, null, 2);
  ctx.out.result(outcome, text);
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a command on the platform: svc run namespace.name --key=value …')
    .argument('<command>', 'the command, as namespace.name')
    .argument('[args...]', 'its input, as --key=value (typed by its input schema)')
    .option('--json', 'same as --output json')
    .option('--raw', 'print only the result, as compact JSON')
    .option('--async', 'run it as a task and answer its id at once (follow it with `svc task wait <id>`)')
    .option('--logs', 'show the lines the command logged (ctx.log) on stderr; in JSON output, as `logs`')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(action<{ raw?: boolean; async?: boolean; logs?: boolean }>((ctx, [command, args], options) => run(ctx, command as string, (args as string[]) ?? [], options)));
}
