import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { integerOption, action } from '../program.js';
import { fetchTask, logText, taskFailure, waitForTask } from './run.js';

const STATUSES = ['pending', 'started', 'success', 'failure', 'timeout', 'revoked'] as const;


/** `svc task get`: where the task stands; a task that ended without success is exit code 10, as `svc run` would have been. */
async function get(ctx: Context, taskId: string): Promise<void> {
  const task = await fetchTask(ctx.client(), taskId);
  const lines = [`Task ${task.task_id}: ${task.status}`];
  if (task.status === 'success') lines.push(JSON.stringify(task.result, null, 2));
  if (task.error) lines.push(`error: ${task.error.message} (${task.error.type})`);
  if (task.logs?.length) lines.push(`${task.logs.length} log line(s): svc task logs ${task.task_id}`);
  ctx.out.result(task, lines.join('\n'));
  if (['failure', 'timeout', 'revoked'].includes(task.status)) throw taskFailure(task, `Task ${task.task_id}`);
}

async function wait(ctx: Context, taskId: string, options: { timeout?: number }): Promise<void> {
  const task = await waitForTask(ctx, ctx.client(), taskId, `Task ${taskId}`, options.timeout === undefined ? undefined : options.timeout * 1000);
  ctx.out.result(task, JSON.stringify(task.result, null, 2));
}

async function cancel(ctx: Context, taskId: string): Promise<void> {
  const data = await ctx.client().tasks.cancel(taskId);
  ctx.out.result(data, `Task ${taskId} cancelled.`);
}

async function logs(ctx: Context, taskId: string): Promise<void> {
  const task = await fetchTask(ctx.client(), taskId);
  const lines = task.logs ?? [];
  ctx.out.result({ task_id: task.task_id, status: task.status, logs: lines }, lines.length > 0 ? logText(lines) : `Task ${task.task_id} (${task.status}) logged nothing.`);
}

async function list(ctx: Context, options: { status?: string; limit: number }): Promise<void> {
  const status = options.status as (typeof STATUSES)[number] | undefined;
  const data = await dataOf(ctx.client().api.GET('/api/v1/tasks', { params: { query: { status, limit: options.limit } } }));
  const rows = data.tasks.map((task) => `${task.task_id}  ${task.status.padEnd(8)} ${task.created_at.slice(0, 19).replace('T', ' ')}  ${task.command}`);
  ctx.out.result(data, rows.length > 0 ? rows.join('\n') : 'No tasks (a run answered at once keeps none; `svc run --async` makes one).');
}

export function registerTaskCommands(program: Command): void {
  const task = program.command('task').description('your tasks: runs that became tasks (`svc run --async`, or longer than the synchronous wait)');
  task
    .command('get')
    .description('a task\'s status, and its result or error')
    .argument('<task-id>', 'the task\'s id')
    .action(action((ctx, [taskId]) => get(ctx, taskId as string)));
  task
    .command('wait')
    .description('wait for a task to end and print its result (exit 10 when it failed)')
    .argument('<task-id>', 'the task\'s id')
    .option('--timeout <seconds>', 'stop waiting after this long (the task goes on)', integerOption('--timeout', 1, 86_400))
    .action(action<{ timeout?: number }>((ctx, [taskId], options) => wait(ctx, taskId as string, options)));
  task
    .command('cancel')
    .description('cancel a pending or running task')
    .argument('<task-id>', 'the task\'s id')
    .action(action((ctx, [taskId]) => cancel(ctx, taskId as string)));
  task
    .command('logs')
    .description('the lines the command logged with ctx.log during the task')
    .argument('<task-id>', 'the task\'s id')
    .action(action((ctx, [taskId]) => logs(ctx, taskId as string)));
  task
    .command('list')
    .description('your tasks, newest first')
    .option('--status <status>', `only tasks in this status: ${STATUSES.join(', ')}`)
    .option('--limit <n>', 'how many (1-100)', integerOption('--limit', 1, 100), 20)
    .action(action<{ status?: string; limit: number }>((ctx, _args, options) => list(ctx, options)));
}
