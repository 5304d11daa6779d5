import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { validationError } from '../errors.js';
import { action, integerOption } from '../program.js';
import { parseCommandRef } from './run.js';

interface Schedule {
  id: string;
  command: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  paused_reason: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
  description: string;
  proposed_by: string | null;
}

interface Run {
  task_id: string;
  status: string;
  scheduled_for: string | null;
  created_at: string;
  error: { type: string; message: string } | null;
}

interface PageOptions {
  page?: number;
  limit?: number;
}

interface CreateOptions {
  cron: string;
  timezone?: string;
  input?: string;
  /** Passed on as given: the platform checks them (exit 3). */
  overlap?: 'skip' | 'queue';
  catchUp?: 'none' | 'latest';
  description?: string;
  paused?: boolean;
}


function line(schedule: Schedule): string {
  const state = schedule.enabled ? `next ${schedule.next_run_at ?? 'never'}` : `paused (${schedule.paused_reason ?? 'paused'})`;
  const by = schedule.proposed_by ? `, proposed by ${schedule.proposed_by}` : '';
  return `${schedule.id}  ${schedule.command.padEnd(28)} ${`${schedule.cron} ${schedule.timezone}`.padEnd(28)} ${state}${by}`;
}

function inputOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const input = JSON.parse(text) as unknown;
    if (input && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw validationError('--input must be a JSON object, e.g. \'{"text":"hello"}\'', { code: 'INPUT_INVALID', details: { input: text } });
}

async function create(ctx: Context, command: string, options: CreateOptions): Promise<void> {
  const ref = parseCommandRef(command);
  const body = {
    command: `${ref.namespace}.${ref.name}`,
    cron: options.cron,
    input: inputOf(options.input),
    ...(options.timezone ? { timezone: options.timezone } : {}),
    ...(options.overlap ? { overlap: options.overlap } : {}),
    ...(options.catchUp ? { catch_up: options.catchUp } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.paused ? { enabled: false } : {}),
  };
  const schedule = (await dataOf(ctx.client().api.POST('/api/v1/schedules', { body }))) as Schedule;
  ctx.out.result(schedule, `Scheduled ${schedule.command} (${schedule.id}): ${schedule.enabled ? `next run ${schedule.next_run_at}` : 'paused'}.`);
}

async function list(ctx: Context, options: PageOptions): Promise<void> {
  const data = (await dataOf(ctx.client().api.GET('/api/v1/schedules', { params: { query: { page: options.page, limit: options.limit } } }))) as { schedules: Schedule[]; total: number; page: number; pages: number };
  ctx.out.result(data, data.schedules.length ? data.schedules.map(line).join('\n') : 'No schedules.');
}

async function show(ctx: Context, id: string): Promise<void> {
  const schedule = (await dataOf(ctx.client().api.GET('/api/v1/schedules/{id}', { params: { path: { id } } }))) as Schedule;
  ctx.out.result(schedule, [line(schedule), schedule.description, `last run: ${schedule.last_run_at ?? 'never'}`].filter(Boolean).join('\n'));
}

async function toggle(ctx: Context, id: string, to: 'pause' | 'resume'): Promise<void> {
  const params = { params: { path: { id } } };
  const schedule = (await dataOf(to === 'pause' ? ctx.client().api.POST('/api/v1/schedules/{id}/pause', params) : ctx.client().api.POST('/api/v1/schedules/{id}/resume', params))) as Schedule;
  ctx.out.result(schedule, to === 'pause' ? `Paused ${schedule.id}.` : `Resumed ${schedule.id}: next run ${schedule.next_run_at}.`);
}

async function trigger(ctx: Context, id: string): Promise<void> {
  const task = await dataOf(ctx.client().api.POST('/api/v1/schedules/{id}/trigger', { params: { path: { id } } }));
  ctx.out.result(task, `Started run ${task.task_id} (${task.status}); follow it with GET ${task.status_url}.`);
}

async function runs(ctx: Context, id: string, options: PageOptions): Promise<void> {
  const data = (await dataOf(ctx.client().api.GET('/api/v1/schedules/{id}/runs', { params: { path: { id }, query: { page: options.page, limit: options.limit } } }))) as { runs: Run[]; total: number };
  const lines = data.runs.map((run) => `${run.task_id}  ${run.status.padEnd(8)} ${run.scheduled_for ? `tick ${run.scheduled_for}` : `triggered ${run.created_at}`}${run.error ? `  ${run.error.type}: ${run.error.message}` : ''}`);
  ctx.out.result(data, lines.length ? lines.join('\n') : 'No runs yet.');
}

async function remove(ctx: Context, id: string): Promise<void> {
  const data = await dataOf(ctx.client().api.DELETE('/api/v1/schedules/{id}', { params: { path: { id } } }));
  ctx.out.result(data, `Deleted schedule ${data.id}; its runs stay as tasks.`);
}

/** `svc schedule`: commands that run on a cron, as tasks of your tenant. */
export function registerScheduleCommands(program: Command): void {
  const schedule = program.command('schedule').description('run commands on a cron (five fields or @hourly…, in a time zone), once per tick');
  schedule
    .command('create')
    .description('schedule a command')
    .argument('<command>', 'namespace.name')
    .requiredOption('--cron <expression>', 'when: five fields, e.g. "0 9 * * 1-5", or @hourly, @daily…')
    .option('--timezone <zone>', 'IANA time zone the cron is read in (default UTC)')
    .option('--input <json>', 'the input of each run, a JSON object')
    .option('--overlap <mode>', 'skip (default) or queue: what a tick does while the last run is unfinished')
    .option('--catch-up <mode>', 'none (default) or latest: what ticks missed while the platform was down do')
    .option('--description <text>', 'what it is for')
    .option('--paused', 'create it paused')
    .action(action<CreateOptions>((ctx, [command], options) => create(ctx, command as string, options)));
  schedule
    .command('list')
    .description("your tenant's schedules")
    .option('--page <n>', 'page number', integerOption('--page', 1))
    .option('--limit <n>', 'schedules per page', integerOption('--limit', 1, 100))
    .action(action<PageOptions>((ctx, _args, options) => list(ctx, options)));
  schedule
    .command('get')
    .description('one schedule')
    .argument('<id>', 'schedule id')
    .action(action((ctx, [id]) => show(ctx, id as string)));
  schedule
    .command('pause')
    .description('stop firing until resumed')
    .argument('<id>', 'schedule id')
    .action(action((ctx, [id]) => toggle(ctx, id as string, 'pause')));
  schedule
    .command('resume')
    .description("fire again from the next tick (also turns on a pack's proposed schedule)")
    .argument('<id>', 'schedule id')
    .action(action((ctx, [id]) => toggle(ctx, id as string, 'resume')));
  schedule
    .command('trigger')
    .description('one run now')
    .argument('<id>', 'schedule id')
    .action(action((ctx, [id]) => trigger(ctx, id as string)));
  schedule
    .command('runs')
    .description("a schedule's runs, newest first")
    .argument('<id>', 'schedule id')
    .option('--page <n>', 'page number', integerOption('--page', 1))
    .option('--limit <n>', 'runs per page', integerOption('--limit', 1, 100))
    .action(action<PageOptions>((ctx, [id], options) => runs(ctx, id as string, options)));
  schedule
    .command('delete')
    .description('delete a schedule (its runs stay as tasks)')
    .argument('<id>', 'schedule id')
    .action(action((ctx, [id]) => remove(ctx, id as string)));
}
