import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Identity } from '@svc/auth';
import { tenantIdsOf } from '@svc/auth';
import type { Bus } from '@svc/bus';
import { LIST_COMMANDS_RPC } from '@svc/contracts';
import { AppError, currentCorrelationId } from '@svc/core';
import { retryAfterSeconds, type LimitResult } from '@svc/rate-limit';
import type { TaskService } from '../services/task.service.js';
import type { McpToolSet } from './mcp-options.js';
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

function text(body: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], ...(isError ? { isError: true } : {}) };
}

export interface McpServerDeps {
  bus: Bus;
  tasks: TaskService;
  version: string;
  /** Takes one command run from the caller's budget (undefined: the tier is unlimited). */
  takeRun(): Promise<LimitResult | undefined>;
  /** Which commands `tools/list` offers (default `all`). */
  tools?: McpToolSet;
}

/**
 * An MCP server for one request of one caller: every command the caller may see is a tool (or
 * only those of the packs its tenants installed), and `tools/call` runs through the same path
 * as REST (visibility, validation, queues, the command-run budget).
 */
export function createMcpServer(identity: Identity, deps: McpServerDeps): Server {
  const server = new Server({ name: 'svc', version: deps.version }, { capabilities: { tools: {} }, jsonSchemaValidator: schemaValidator });

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const page = decodeCursor(request.params?.cursor);
    const listed = await deps.bus.request(LIST_COMMANDS_RPC, {
      tenant_ids: tenantIdsOf(identity),
      ...(deps.tools === 'installed' ? { installed: true, tenant_id: identity.tenantId } : {}),
      page,
      limit: TOOLS_PAGE_SIZE,
    });
    const tools: Tool[] = listed.commands.map((c) => ({
      name: toolName(c.namespace, c.pack, c.name),
      description: c.description,
      inputSchema: { type: 'object', ...c.input_schema } as Tool['inputSchema'],
    }));
    return { tools, ...(page < listed.pages ? { nextCursor: encodeCursor(page + 1) } : {}) };
  });

  // Registered with a loose schema so that the SDK's own check of the params answers a bad
  // request with InvalidParams (-32602) instead of an internal error.
  server.setRequestHandler(LooseCallToolRequest, async (raw) => {
    const request = CallToolRequestSchema.parse(raw);
    const target = parseToolName(request.params.name);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const correlationId = currentCorrelationId() ?? '';
    const fullName = `@${target.namespace}/${target.pack}/${target.command}`;
    const run = await deps.takeRun();
    if (run?.rejected) {
      const retryAfter = retryAfterSeconds(run);
      return text({ error: `Command run limit reached; retry in ${retryAfter} s`, type: 'rate_limit', code: 'RATE_LIMITED', retry_after: retryAfter, correlation_id: correlationId }, true);
    }
    try {
      const answer = await deps.tasks.run(identity, { namespace: target.namespace, pack: target.pack, name: target.command, input: request.params.arguments ?? {}, preferAsync: false });
      if (answer.kind === 'task') {
        const task = answer.task;
        return text({ pending: true, task_id: task.id, queue: task.queue, namespace: fullName, correlation_id: correlationId, message: `Running as a task; poll GET /api/v1/tasks/${task.id}` });
      }
      const { outcome } = answer;
      if (outcome.status === 'success') return text({ result: outcome.result ?? null, correlation_id: correlationId });
      if (outcome.status === 'timeout') return text({ error: 'Command timed out', type: 'timeout', correlation_id: correlationId }, true);
      if (outcome.error?.kind === 'command') return text({ error: outcome.error.message, type: 'command', correlation_id: correlationId }, true);
      return text({ error: 'Command failed', type: 'internal', correlation_id: correlationId }, true);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      if (err instanceof AppError && err.code === 'VALIDATION_FAILED') return text({ error: err.message, type: 'validation', correlation_id: correlationId }, true);
      // The caller's tenant holds its share of the workers, or every runner is busy: nothing ran.
      if (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE' && typeof err.details.retry_after === 'number') {
        return text({ error: `${err.message}`, type: 'unavailable', code: 'SERVICE_UNAVAILABLE', retry_after: err.details.retry_after, correlation_id: correlationId }, true);
      }
      return text({ error: 'Internal error', type: 'internal', correlation_id: correlationId }, true);
    }
  });

  return server;
}
