import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { ErrorCode, McpError, type CallToolResult, type Request, type RequestId, type Result, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { Identity } from '@svc/auth';
import type { TaskStatus } from '@svc/contracts';
import type { TaskRow } from '../../core/repositories/task.repository.js';
import { isTerminal, outcomeOf } from '../../core/task-view.js';
import type { TaskService } from '../services/task.service.js';

/** What a client is told to wait between two `tasks/get`, and what `tasks/result` waits between two looks. */
export const TASK_POLL_INTERVAL_MS = 1000;
/** Tasks per `tasks/list` page. */
export const TASKS_PAGE_SIZE = 50;

/** Our states as the protocol's: a task that waits for a worker or runs is `working`. */
const MCP_STATUS: Record<TaskStatus, Task['status']> = {
  pending: 'working',
  started: 'working',
  success: 'completed',
  failure: 'failed',
  timeout: 'failed',
  revoked: 'cancelled',
};

function statusMessageOf(row: TaskRow): string | undefined {
  if (row.status === 'timeout') return 'Command timed out';
  if (row.status === 'revoked') return 'Cancelled';
  // Only a command's own failure carries its message, as everywhere else.
  if (row.status === 'failure') return row.error?.kind === 'command' ? row.error.message : 'Command failed';
  // A run's status is its command's last progress report (`ctx.progress`).
  const progress = row.progress;
  if (!progress || row.status === 'success') return undefined;
  const count = progress.total !== undefined ? `${progress.done}/${progress.total}` : `${progress.done}`;
  return progress.message ? `${progress.message} (${count})` : count;
}

/** A task as the protocol shows it; `ttl` is how long its result is kept once it ends. */
export function mcpTaskOf(row: TaskRow, retentionMs: number): Task {
  const statusMessage = statusMessageOf(row);
  return {
    taskId: row.id,
    status: MCP_STATUS[row.status],
    ttl: retentionMs,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: (row.completedAt ?? row.startedAt ?? row.createdAt).toISOString(),
    pollInterval: TASK_POLL_INTERVAL_MS,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
  };
}

function encodeCursor(row: TaskRow): string {
  return Buffer.from(JSON.stringify({ at: row.createdAt.toISOString(), id: row.id })).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const { at, id } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { at: unknown; id: unknown };
    const createdAt = new Date(String(at));
    if (typeof id === 'string' && !Number.isNaN(createdAt.getTime())) return { createdAt, id };
  } catch {
    // Fall through to the protocol error below.
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
}

export interface McpTaskStoreDeps {
  tasks: TaskService;
  /** Runs the `tools/call` request as one of our tasks and answers the row (its id is the MCP task id). */
  start(request: Request): Promise<TaskRow>;
  /** The tool result of a task that ended (the same a synchronous call would have answered). */
  resultOf(row: TaskRow): Promise<CallToolResult>;
}

/**
 * MCP Tasks (protocol 2025-11-25) over our tasks, for one caller: the SDK's `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel` read and cancel the caller's own tasks, by the
 * same id and states as `GET /api/v1/tasks/{id}`; anybody else's task is not found. The server
 * is stateless, so every call reads the stored task: any replica answers any of them.
 * Results are written by the worker that ran the command, never through this store.
 */
export class McpTaskStore implements TaskStore {
  constructor(
    private readonly caller: Identity,
    private readonly deps: McpTaskStoreDeps,
  ) {}

  async createTask(_params: CreateTaskOptions, _requestId: RequestId, request: Request): Promise<Task> {
    // The requested ttl is not taken: results are kept for the platform's retention, which `ttl` reports.
    return mcpTaskOf(await this.deps.start(request), this.deps.tasks.retentionMs);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const row = await this.deps.tasks.find(this.caller, taskId);
    return row ? mcpTaskOf(row, this.deps.tasks.retentionMs) : null;
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const row = await this.deps.tasks.find(this.caller, taskId);
    if (!row || !isTerminal(row)) throw new McpError(ErrorCode.InvalidParams, `Task not found or not finished: ${taskId}`);
    if (row.resultPurged || (row.resultExpiresAt && row.resultExpiresAt.getTime() <= Date.now()) || !outcomeOf(row)) {
      throw new McpError(ErrorCode.InvalidParams, 'The task finished and its result has expired', { task_id: row.id, completed_at: row.completedAt?.toISOString() ?? null });
    }
    return this.deps.resultOf(row);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const rows = await this.deps.tasks.pageOf(this.caller, TASKS_PAGE_SIZE + 1, cursor === undefined ? undefined : decodeCursor(cursor));
    const page = rows.slice(0, TASKS_PAGE_SIZE);
    const last = page.at(-1);
    return { tasks: page.map((row) => mcpTaskOf(row, this.deps.tasks.retentionMs)), ...(rows.length > TASKS_PAGE_SIZE && last ? { nextCursor: encodeCursor(last) } : {}) };
  }

  /** The SDK asks for `cancelled` on `tasks/cancel`: the task is revoked and its run killed, as `POST /api/v1/tasks/{id}/cancel` does. */
  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') throw new McpError(ErrorCode.InvalidRequest, `A task's ${status} state is set by the worker running it`);
    await this.deps.tasks.cancel(this.caller, taskId);
  }

  async storeTaskResult(): Promise<void> {
    throw new McpError(ErrorCode.InvalidRequest, 'Task results are recorded by the worker that ran the command');
  }
}
