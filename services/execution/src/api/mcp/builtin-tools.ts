import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Identity } from '@svc/auth';
import { AppError } from '@svc/core';
import type { TaskService } from '../services/task.service.js';
import { textResult } from './tool-results.js';

export const TASK_GET_TOOL = 'svc__task_get';
export const TASK_CANCEL_TOOL = 'svc__task_cancel';

const taskIdInput: Tool['inputSchema'] = {
  type: 'object',
  properties: { task_id: { type: 'string', description: 'The task_id of a pending answer.' } },
  required: ['task_id'],
  additionalProperties: false,
};

/**
 * Tools of the platform itself, listed after the commands: an agent that does not speak MCP
 * Tasks follows a pending answer (`{pending: true, task_id, …}`) with them, as a REST client
 * does with `GET /api/v1/tasks/{id}` and `POST …/cancel`. `svc` is a reserved namespace, so no
 * command's tool name can be one of these.
 */
export const BUILTIN_TOOLS: Tool[] = [
  {
    name: TASK_GET_TOOL,
    title: 'Get a task',
    description: 'The state of a task that a tool call answered as pending: status (pending, started, success, failure, timeout, revoked), its result once it succeeded, its error once it failed.',
    inputSchema: taskIdInput,
    annotations: { title: 'Get a task', readOnlyHint: true, openWorldHint: false },
  },
  {
    name: TASK_CANCEL_TOOL,
    title: 'Cancel a task',
    description: 'Cancels a pending or running task that a tool call answered as pending; its run is stopped.',
    inputSchema: taskIdInput,
    annotations: { title: 'Cancel a task', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
];

function taskIdOf(args: Record<string, unknown> | undefined): string {
  const taskId = args?.task_id;
  if (typeof taskId !== 'string') throw new McpError(ErrorCode.InvalidParams, 'task_id must be a string');
  return taskId;
}

/**
 * Answers a built-in tool, or undefined when `name` is not one. Another user's or tenant's task
 * is not found, like an unknown one; REST's 410 (result expired) and 409 (already ended) come
 * back as tool errors with the same codes.
 */
export async function callBuiltinTool(name: string, args: Record<string, unknown> | undefined, caller: Identity, tasks: TaskService, correlationId: string): Promise<CallToolResult | undefined> {
  if (name !== TASK_GET_TOOL && name !== TASK_CANCEL_TOOL) return undefined;
  const taskId = taskIdOf(args);
  try {
    if (name === TASK_GET_TOOL) return textResult({ task: await tasks.get(caller, taskId), correlation_id: correlationId });
    return textResult({ ...(await tasks.cancel(caller, taskId)), correlation_id: correlationId });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'NOT_FOUND' || err.code === 'PERMISSION_DENIED') throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    if (err.code === 'GONE' || err.code === 'TASK_TERMINAL') {
      return textResult({ error: err.message, type: err.code === 'GONE' ? 'gone' : 'conflict', code: err.code, ...err.details, correlation_id: correlationId }, true);
    }
    throw err;
  }
}
