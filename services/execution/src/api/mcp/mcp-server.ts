import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type ProgressToken,
  type Request,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Identity } from '@svc/auth';
import { tenantIdsOf } from '@svc/auth';
import type { Bus } from '@svc/bus';
import { LIST_COMMANDS_RPC, type CommandSummary, type TaskProgress } from '@svc/contracts';
import { AppError, currentCorrelationId } from '@svc/core';
import { retryAfterSeconds, type LimitResult } from '@svc/rate-limit';
import type { TaskRow } from '../../core/repositories/task.repository.js';
import { outcomeOf } from '../../core/task-view.js';
import type { TaskService } from '../services/task.service.js';
import { BUILTIN_TOOLS, callBuiltinTool, TASK_GET_TOOL } from './builtin-tools.js';
import { appResourcesOf, toolUiMeta, type DashboardApps } from './dashboard-apps.js';
import type { McpToolSet } from './mcp-options.js';
import { McpTaskStore, TASK_POLL_INTERVAL_MS } from './mcp-task-store.js';
import { outcomeResult, textResult } from './tool-results.js';
import { parseToolName, toolName } from './tool-names.js';

const LooseCallToolRequest = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/**
 * One JSON Schema validator for every request's server: the SDK would otherwise build a new Ajv
 * instance per server, about a seventh of a `tools/call`'s CPU. (It checks elicitation forms,
 * which this server never sends.)
 */
const schemaValidator = new AjvJsonSchemaValidator();

/** Tools per `tools/list` page; the protocol's cursor carries the next page. */
export const TOOLS_PAGE_SIZE = 100;

/**
 * JSON-RPC code of a task-augmented call refused before anything ran (the command-run budget,
 * the worker's share): a server error, its `data` the body a plain call would have answered.
 */
export const REFUSED_CODE = -32000;

function encodeCursor(page: number): string {
  return Buffer.from(JSON.stringify({ page })).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  try {
    const { page } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { page: unknown };
    if (Number.isInteger(page) && (page as number) >= 1) return page as number;
  } catch {
    // Fall through to the protocol error below.
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
}

/**
 * A command as a tool: medium and long ones may run as MCP tasks; `annotations` pass through.
 * The `outputSchema` is declared for fast commands only: a medium or long one answers a plain
 * call with the pending envelope, which a client holding the tool to its schema would refuse
 * (its typed result comes back through `tasks/result` all the same).
 */
function toolOf(command: CommandSummary): Tool {
  const annotations = Object.keys(command.annotations).length > 0 ? command.annotations : undefined;
  const meta = toolUiMeta(command);
  return {
    name: toolName(command.namespace, command.pack, command.name),
    ...(annotations?.title ? { title: annotations.title } : {}),
    description: command.description,
    inputSchema: { type: 'object', ...command.input_schema } as Tool['inputSchema'],
    ...(command.output_schema && command.queue === 'fast' ? { outputSchema: command.output_schema as Tool['outputSchema'] } : {}),
    ...(annotations ? { annotations } : {}),
    ...(command.queue !== 'fast' ? { execution: { taskSupport: 'optional' as const } } : {}),
    ...(meta ? { _meta: meta } : {}),
  };
}

/** `ctx.progress(done, total?, message?)` as the protocol's progress notification for the caller's token. */
function progressNotification(progressToken: ProgressToken, progress: TaskProgress): ServerNotification {
  return {
    method: 'notifications/progress',
    params: { progressToken, progress: progress.done, ...(progress.total !== undefined ? { total: progress.total } : {}), ...(progress.message ? { message: progress.message } : {}) },
  };
}

const unknownTool = (name: string) => new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);

/** The command a tool call names, with its arguments as the input; a name that is no command's tool is -32602. */
function commandRunOf(params: CallToolRequest['params']): { namespace: string; pack: string; name: string; input: unknown } {
  const target = parseToolName(params.name);
  if (!target) throw unknownTool(params.name);
  return { namespace: target.namespace, pack: target.pack, name: target.command, input: params.arguments ?? {} };
}

export interface McpServerDeps {
  bus: Bus;
  tasks: TaskService;
  /** The pages of commands' dashboards (MCP Apps). */
  apps: DashboardApps;
  version: string;
  /** Takes one command run from the caller's budget (undefined: the tier is unlimited). */
  takeRun(): Promise<LimitResult | undefined>;
  /** Which commands `tools/list` offers (default `all`). */
  tools?: McpToolSet;
}

/**
 * An MCP server for one request of one caller: every command the caller may see is a tool (or
 * only those of the packs its tenants installed), and `tools/call` runs through the same path
 * as REST (visibility, validation, queues, the command-run budget). Medium and long commands
 * run as MCP tasks when the client asks (`params.task`), else answer the spec's pending
 * envelope, which the built-in tools follow.
 */
export function createMcpServer(identity: Identity, deps: McpServerDeps): Server {
  const taskStore = new McpTaskStore(identity, {
    tasks: deps.tasks,
    start: (request) => startTask(request),
    resultOf: async (row) => outcomeResult(outcomeOf(row)!, row.correlationId, Boolean((await deps.tasks.commandOf(identity, row))?.output_schema)),
  });
  const server = new Server(
    { name: 'svc', version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      jsonSchemaValidator: schemaValidator,
      taskStore,
      defaultTaskPollInterval: TASK_POLL_INTERVAL_MS,
    },
  );

  const listCommands = (page: number) =>
    deps.bus.request(LIST_COMMANDS_RPC, {
      tenant_ids: tenantIdsOf(identity),
      ...(deps.tools === 'installed' ? { installed: true, tenant_id: identity.tenantId } : {}),
      page,
      limit: TOOLS_PAGE_SIZE,
    });

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const page = decodeCursor(request.params?.cursor);
    const listed = await listCommands(page);
    const tools = listed.commands.map(toolOf);
    // The platform's own tools close the list, so that the commands' pages stay as REST pages them.
    if (page >= listed.pages) return { tools: [...tools, ...BUILTIN_TOOLS] };
    return { tools, nextCursor: encodeCursor(page + 1) };
  });

  // The UIs of the tools, page by page as the tools are: each dashboard a command names.
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const page = decodeCursor(request.params?.cursor);
    const listed = await listCommands(page);
    const resources = appResourcesOf(listed.commands);
    return page >= listed.pages ? { resources } : { resources, nextCursor: encodeCursor(page + 1) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, (request) => deps.apps.read(identity, request.params.uri));

  /**
   * A call refused before anything ran: a tool error for a plain call, a JSON-RPC error for a
   * call that asked for a task (whose answer must otherwise be a task).
   */
  const refuse = (asTask: boolean, body: { error: string; type: string } & Record<string, unknown>): CallToolResult => {
    if (!asTask) return textResult(body, true);
    const code = body.type === 'validation' ? ErrorCode.InvalidParams : body.type === 'internal' ? ErrorCode.InternalError : REFUSED_CODE;
    throw new McpError(code, body.error, body);
  };

  const failure = (err: unknown, name: string, asTask: boolean): CallToolResult => {
    const correlationId = currentCorrelationId() ?? '';
    if (err instanceof McpError) throw err;
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw unknownTool(name);
    if (err instanceof AppError && err.code === 'VALIDATION_FAILED') return refuse(asTask, { error: err.message, type: 'validation', correlation_id: correlationId });
    // The caller's tenant holds its share of the workers, every runner is busy, or the run could not be queued: nothing ran.
    if (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE' && typeof err.details.retry_after === 'number') {
      return refuse(asTask, { error: err.message, type: 'unavailable', code: 'SERVICE_UNAVAILABLE', retry_after: err.details.retry_after, correlation_id: correlationId });
    }
    return refuse(asTask, { error: 'Internal error', type: 'internal', correlation_id: correlationId });
  };

  /** Runs a `tools/call` that asked for a task as one of ours: `McpTaskStore.createTask` calls this. */
  async function startTask(request: Request): Promise<TaskRow> {
    const { params } = CallToolRequestSchema.parse(request);
    const answer = await deps.tasks.run(identity, {
      ...commandRunOf(params),
      preferAsync: true,
      // A fast command is no task tool (no `execution.taskSupport`): the protocol's answer is -32601.
      admit: async (command) => {
        if (command.queue === 'fast') throw new McpError(ErrorCode.MethodNotFound, `Tool ${params.name} does not run as a task; call it without "task"`);
      },
    });
    if (answer.kind !== 'task') throw new McpError(ErrorCode.InternalError, 'The command did not start as a task');
    return answer.task;
  }

  // Registered with a loose schema so that the SDK's own check of the params answers a bad
  // request with InvalidParams (-32602) instead of an internal error.
  server.setRequestHandler(LooseCallToolRequest, async (raw, extra) => {
    const request = CallToolRequestSchema.parse(raw);
    const { name } = request.params;
    const asTask = request.params.task !== undefined;
    const correlationId = currentCorrelationId() ?? '';
    try {
      const builtin = await callBuiltinTool(name, request.params.arguments, identity, deps.tasks, correlationId);
      if (builtin) return builtin;
      const command = commandRunOf(request.params);
      const run = await deps.takeRun();
      if (run?.rejected) {
        const retryAfter = retryAfterSeconds(run);
        return refuse(asTask, { error: `Command run limit reached; retry in ${retryAfter} s`, type: 'rate_limit', code: 'RATE_LIMITED', retry_after: retryAfter, correlation_id: correlationId });
      }
      if (asTask) return { task: await extra.taskStore!.createTask({ ttl: request.params.task?.ttl }) };
      const progressToken = request.params._meta?.progressToken;
      const answer = await deps.tasks.run(identity, {
        ...command,
        preferAsync: false,
        ...(progressToken !== undefined ? { onProgress: (progress: TaskProgress) => void extra.sendNotification(progressNotification(progressToken, progress)).catch(() => undefined) } : {}),
      });
      if (answer.kind === 'task') {
        const task = answer.task;
        return textResult({
          pending: true,
          task_id: task.id,
          queue: task.queue,
          namespace: `@${command.namespace}/${command.pack}/${command.name}`,
          correlation_id: correlationId,
          message: `Running as a task; call ${TASK_GET_TOOL} with this task_id, or poll GET /api/v1/tasks/${task.id}`,
        });
      }
      return outcomeResult(answer.outcome, correlationId, answer.command.output_schema !== null);
    } catch (err) {
      return failure(err, name, asTask);
    }
  });

  return server;
}
