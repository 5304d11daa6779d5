import { z } from 'zod';
import {
  JsonRpcResponse,
  Namespace,
  PACKAGE_FIELD,
  PackOrCommandName,
  RunResult,
  Sandbox,
  SANDBOX_QUOTAS,
  SandboxAlreadyRunning,
  SandboxPackSynced,
  SandboxStarted,
  SandboxStopped,
  Schedule,
  ScheduleRun,
  Task,
  TaskAccepted,
  TaskAnswer,
  TaskCancelled,
  TaskList,
} from '@svc/contracts';
import { MAX_PACKAGE_BYTES } from '@svc/pack-sdk';
import {
  arrayOf,
  componentSchemas,
  constant,
  dataResponse,
  enumOf,
  errorResponse,
  fromZod,
  headerParameter,
  integer,
  jsonResponse,
  object,
  pathParameter,
  queryParameters,
  ref,
  string,
  type OpenApiFragment,
  type OperationObject,
  type SchemaObject,
} from '@svc/openapi';
import { IDEMPOTENCY_KEY_MAX, TASK_LIST_MAX, TaskListQuery } from './api/http/task.routes.js';
import { McpQuery } from './api/mcp/mcp-options.js';
import { StartSandboxBody } from './api/http/sandbox.routes.js';
import { ALREADY_RUNNING } from './api/services/sandbox.service.js';
import { schedulePaths } from './schedule.openapi.js';

/** The path, query and header parameters of a command run, installed or in the sandbox. */
/** A synchronous run that never started (the tenant's share of the workers, or every runner, was taken), or the queue or database away. */
const notStarted = {
  ...errorResponse(
    '`SERVICE_UNAVAILABLE`: nothing ran. The caller\'s tenant holds its share of the workers or every runner is busy (`details.reason` `tenant_calls`, `tenant_runners` or `pool_full`, with `details.limit` and `details.retry_after`, and `Retry-After`), or the queue or the database is out of reach.',
  ),
  headers: { 'Retry-After': { description: 'Seconds to wait before trying again, when the refusal knows.', schema: integer({ minimum: 0 }) } },
};

const runParameters = [
  pathParameter('namespace', fromZod(Namespace), 'The namespace, without `@`.'),
  pathParameter('name', fromZod(PackOrCommandName), 'The command\'s name.'),
  { name: 'async', in: 'query' as const, required: false, description: 'Run as a task even when the command is fast.', schema: enumOf(['true', 'false']) },
  { name: 'logs', in: 'query' as const, required: false, description: '`true`: the answer carries the lines the run logged (`logs`; on a failure, `error.details.logs`).', schema: enumOf(['true', 'false']) },
  headerParameter('Prefer', string(), '`respond-async` asks for a task, as `?async=true` does.'),
];
const replayed = { 'Idempotent-Replayed': { description: '`true` when this is the stored outcome of an earlier call with the same `Idempotency-Key`.', schema: constant('true') } };
const taskId = pathParameter('task_id', string(), 'The task\'s id.');
/** A request, notification or response; the MCP SDK checks the rest. */
const jsonRpcMessage: SchemaObject = { type: 'object', properties: { jsonrpc: constant('2.0'), method: string() }, required: ['jsonrpc'] };

const notRunning = errorResponse('`SANDBOX_NOT_RUNNING`: start the sandbox first.');

const jsonRpcError = (description: string) => jsonResponse(description, ref('JsonRpcResponse'));

/** GET and DELETE mean something only with MCP sessions, which this server does not keep. */
const mcpMethodNotAllowed = (operationId: string): OperationObject => ({
  operationId,
  summary: 'Not supported: the MCP endpoint is stateless',
  tags: ['MCP'],
  responses: {
    405: { ...errorResponse('`METHOD_NOT_ALLOWED`: use POST.'), headers: { Allow: { description: '`POST`.', schema: string() } } },
  },
});

/** Command runs, tasks and the MCP endpoint. */
export const executionOpenApi: OpenApiFragment = {
  service: 'execution',
  tags: [
    { name: 'Tasks', description: 'Asynchronous runs: poll and cancel.' },
    { name: 'MCP', description: 'The Model Context Protocol endpoint for AI agents.' },
    { name: 'Sandbox', description: 'A development sandbox per user, with the spec\'s quotas.' },
    { name: 'Schedules', description: 'Commands run on a cron, as tasks, once per tick.' },
  ],
  schemas: componentSchemas(Task, JsonRpcResponse, Schedule, ScheduleRun),
  paths: {
    ...schedulePaths,
    '/api/v1/commands/{namespace}/{name}': {
      post: {
        operationId: 'runCommand',
        summary: 'Run a command',
        description:
          '`fast` commands answer inline (200); `medium` and `long` commands, `?async=true` and `Prefer: respond-async` answer 202 with a task to poll, and so does a fast command still running after the sync wait.',
        tags: ['Commands'],
        parameters: [
          ...runParameters,
          headerParameter('Idempotency-Key', string({ minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x21-\\x7e]+$' }), 'The same key from the same user within 24 h returns the first outcome instead of running again.'),
        ],
        requestBody: { required: false, description: 'The input: a JSON object that satisfies the command\'s `input_schema` (`{}` when absent).', content: { 'application/json': { schema: { type: 'object' } } } },
        responses: {
          200: dataResponse('The command ran (with `logs` when `?logs=true`).', RunResult, replayed),
          202: dataResponse('Running as a task.', TaskAccepted, {
            ...replayed,
            Location: { description: 'The task\'s status URL.', schema: string() },
          }),
          400: errorResponse('`VALIDATION_FAILED`: the input does not satisfy `input_schema` (`details.field`, `value`, `issue`, `issues`), or a malformed `async` or `Idempotency-Key`.'),
          404: errorResponse('`NOT_FOUND`: no such command, or one the caller may not reach.'),
          408: errorResponse('`TIMEOUT`: the command ran past its timeout and was stopped.'),
          409: errorResponse('`TASK_REVOKED`: cancelled meanwhile; `IDEMPOTENCY_CONFLICT`: the same key is still running, or was used for another command.'),
          502: errorResponse('`INTEGRATION_ERROR`: the command threw (`error.type` is the thrown class name), its result was over 1 MiB, or its runner died.'),
          503: notStarted,
        },
      },
    },
    '/api/v1/tasks': {
      get: {
        operationId: 'listTasks',
        summary: 'The caller\'s own tasks, newest first',
        description: 'Runs that became tasks (asked for async, or waited past the synchronous limit); a synchronous run answered in time keeps no task. Only the caller\'s own, in their tenant.',
        tags: ['Tasks'],
        parameters: queryParameters(TaskListQuery, { status: 'Only tasks in this status.', limit: `How many, newest first (1-${TASK_LIST_MAX}, default 20).` }),
        responses: {
          200: jsonResponse('The tasks.', TaskList),
          400: errorResponse('`VALIDATION_FAILED`: an unknown status, a limit out of range, or another parameter.'),
        },
      },
    },
    '/api/v1/tasks/{task_id}': {
      get: {
        operationId: 'getTask',
        summary: 'A task\'s status and result',
        tags: ['Tasks'],
        parameters: [taskId],
        responses: {
          200: jsonResponse('The task.', TaskAnswer),
          403: errorResponse('`PERMISSION_DENIED`: the task belongs to another user or tenant.'),
          404: errorResponse('`NOT_FOUND`: unknown or malformed id.'),
          410: errorResponse('`GONE`: the task finished and its result has expired.'),
        },
      },
    },
    '/api/v1/tasks/{task_id}/cancel': {
      post: {
        operationId: 'cancelTask',
        summary: 'Cancel a pending or started task',
        tags: ['Tasks'],
        parameters: [taskId],
        responses: {
          200: jsonResponse('Revoked.', TaskCancelled),
          403: errorResponse('`PERMISSION_DENIED`: the task belongs to another user or tenant.'),
          404: errorResponse('`NOT_FOUND`: unknown or malformed id.'),
          409: errorResponse('`TASK_TERMINAL`: the task has already ended.'),
        },
      },
    },
    '/api/v1/sandbox': {
      get: {
        operationId: 'getSandbox',
        summary: 'Your development sandbox: status, sandbox_id, uptime',
        tags: ['Sandbox'],
        responses: { 200: dataResponse('The sandbox (stopped, with a null id, before the first start).', Sandbox) },
      },
      post: {
        operationId: 'startSandbox',
        summary: 'Start your development sandbox',
        description: `One session at a time, a soft limit: starting while one runs answers that one (200) with \`warning\` ("${ALREADY_RUNNING}") and counts as activity.`,
        tags: ['Sandbox'],
        requestBody: { required: false, content: { 'application/json': { schema: fromZod(StartSandboxBody) } } },
        responses: {
          201: dataResponse('A new session.', SandboxStarted),
          200: dataResponse('The session already running.', SandboxAlreadyRunning),
          400: errorResponse('`VALIDATION_FAILED`: `timeout` is not a whole number of seconds from 60 to 86400, or another field was sent.'),
          403: errorResponse('`PERMISSION_DENIED`: developer mode is required.'),
        },
      },
      delete: {
        operationId: 'stopSandbox',
        summary: 'Stop your development sandbox',
        description: 'Stopping a sandbox that is not running changes nothing and answers `stopped: false`.',
        tags: ['Sandbox'],
        responses: { 200: dataResponse('The sandbox, now stopped.', SandboxStopped) },
      },
    },
    '/api/v1/sandbox/packs': {
      put: {
        operationId: 'syncSandboxPack',
        summary: 'Put a pack into your running sandbox',
        description: `The package gets the registry's checks; it replaces an earlier sync of the same namespace and name. All synced packs together hold at most ${SANDBOX_QUOTAS.storage_bytes} bytes. Counts as activity.`,
        tags: ['Sandbox'],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: object({ [PACKAGE_FIELD]: string({ format: 'binary', description: `The package (.tar.gz, pack.yaml at its root; or a Python pack's wheel), at most ${MAX_PACKAGE_BYTES} bytes.` }) }),
              encoding: { [PACKAGE_FIELD]: { contentType: 'application/gzip, application/zip' } },
            },
          },
        },
        responses: {
          201: dataResponse('Synced for the first time.', SandboxPackSynced.extend({ created: z.literal(true) })),
          200: dataResponse('Replaced the earlier sync.', SandboxPackSynced.extend({ created: z.literal(false) })),
          400: errorResponse('`PACKAGE_INVALID`, `PACKAGE_PATH_INVALID`, `MANIFEST_INVALID`, `INPUT_SCHEMA_INVALID` or `ENTRY_MISSING`, as the registry answers them.'),
          403: errorResponse('`PERMISSION_DENIED`: the pack\'s namespace is not the caller\'s nor one of their organizations\'.'),
          409: notRunning,
          413: errorResponse('`PAYLOAD_TOO_LARGE`: the package is too large, or the sandbox\'s packs would pass its storage quota (`details.limit_bytes`, `used_bytes`, `size_bytes`).'),
        },
      },
    },
    '/api/v1/sandbox/commands/{namespace}/{name}': {
      post: {
        operationId: 'runSandboxCommand',
        summary: 'Run a command of a pack synced into your sandbox',
        description: 'As `POST /api/v1/commands/{namespace}/{name}` runs an installed one (same answers, tasks polled at `/api/v1/tasks/{task_id}`), without `Idempotency-Key`, and with no pack secrets. A run whose input passed counts against the monthly quota; it is activity.',
        tags: ['Sandbox'],
        parameters: [
          ...runParameters,
        ],
        requestBody: { required: false, description: 'The input: a JSON object that satisfies the command\'s `input_schema`.', content: { 'application/json': { schema: { type: 'object' } } } },
        responses: {
          200: dataResponse('The command ran (with `logs` when `?logs=true`).', RunResult),
          202: dataResponse('Running as a task.', TaskAccepted, { Location: { description: 'The task\'s status URL.', schema: string() } }),
          400: errorResponse('`VALIDATION_FAILED`: the input does not satisfy `input_schema`, or a malformed `async`.'),
          404: errorResponse('`NOT_FOUND`: no synced pack of the namespace has this command.'),
          408: errorResponse('`TIMEOUT`: the command ran past its timeout and was stopped.'),
          409: errorResponse('`SANDBOX_NOT_RUNNING`: start the sandbox first; `TASK_REVOKED`: cancelled meanwhile.'),
          429: errorResponse(`\`QUOTA_EXCEEDED\`: ${SANDBOX_QUOTAS.executions_per_month} runs this calendar month; \`details.resets_at\` says when more may run.`),
          502: errorResponse('`INTEGRATION_ERROR`: the command threw, its result was over 1 MiB, or its runner died.'),
          503: notStarted,
        },
      },
    },
    '/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'Streamable-HTTP MCP server (JSON-RPC)',
        description:
          'Stateless (no sessions) and answering JSON (server-sent events for a `tools/call` that asked for progress). Protocol revisions 2025-11-25 (latest), 2025-06-18, 2025-03-26, 2024-11-05 and 2024-10-07. Methods: `initialize` (tools and tasks capabilities), `ping`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` (MCP Tasks over the caller\'s own tasks, same ids and states as `GET /api/v1/tasks/{task_id}`; medium and long tools carry `execution.taskSupport: "optional"`), `tools/list` (the commands `GET /api/v1/commands` lists, as tools named `scope__pack__command`, 100 per page, with their `annotations` and, for fast ones, `outputSchema`; with `?tools=installed` only those of the packs the caller\'s tenants installed; the last page ends with the built-in `svc__task_get` and `svc__task_cancel`), `tools/call` (runs through the REST path; counts against the command-run budget: a refused call is answered with `isError: true` and `{error, type: "rate_limit", code: "RATE_LIMITED", retry_after, correlation_id}`, the `X-RateLimit-*` headers describing the command-run budget). Send `Accept: application/json, text/event-stream`.',
        tags: ['MCP'],
        parameters: queryParameters(McpQuery, {
          tools: '`all` (default): every command the tenant may see, as the spec has it. `installed`: only the commands of the packs the caller\'s tenants installed, at their installed version.',
        }),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                description: 'A JSON-RPC 2.0 message, or a batch of them.',
                anyOf: [jsonRpcMessage, arrayOf(jsonRpcMessage)],
              },
            },
          },
        },
        responses: {
          200: {
            description: 'The JSON-RPC response (or responses, for a batch).',
            content: {
              'application/json': { schema: fromZod(z.union([JsonRpcResponse, z.array(JsonRpcResponse)]), 'output') },
              'text/event-stream': { schema: { type: 'string', description: 'Server-sent events, for a `tools/call` that asked for progress (`params._meta.progressToken`): its `notifications/progress`, then its response.' } },
            },
          },
          202: { description: 'Only notifications or responses were sent: nothing to answer.' },
          400: jsonResponse('A body that is not JSON (-32700), not JSON-RPC or nested more than 64 levels (-32600); or the error body for an unreadable request or an unknown `tools` value.', { anyOf: [ref('JsonRpcResponse'), ref('Error')] }),
          403: errorResponse('`PERMISSION_DENIED`: the API key lacks the `commands:execute` scope.'),
          406: jsonRpcError('The `Accept` header does not name both `application/json` and `text/event-stream`.'),
          415: jsonRpcError('The body is not `application/json`.'),
        },
      },
      get: mcpMethodNotAllowed('mcpGet'),
      delete: mcpMethodNotAllowed('mcpDelete'),
    },
  },
};
