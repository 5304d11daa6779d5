import express, { Router } from 'express';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireIdentity } from '@svc/auth';
import type { Bus } from '@svc/bus';
import { API_KEY_SCOPES } from '@svc/contracts';
import { JSON_BODY_LIMIT_BYTES, jsonNestedDeeperThan, MAX_JSON_DEPTH, MethodNotAllowedError, parseInput, PermissionError } from '@svc/core';
import { rateLimitHeaders, type CommandRunQuota } from '@svc/rate-limit';
import { DashboardApps } from '../mcp/dashboard-apps.js';
import { McpQuery } from '../mcp/mcp-options.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import type { TaskService } from '../services/task.service.js';

/** A `tools/call` that asked for progress (a token in `params._meta`). */
const ProgressCall = z.object({ method: z.literal('tools/call'), params: z.object({ _meta: z.object({ progressToken: z.union([z.string(), z.number()]) }) }) });

/** Whether a message (or one of a batch) is a tool call that asked for progress. */
function asksForProgress(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((message) => ProgressCall.safeParse(message).success);
}

/**
 * `POST /mcp`: a stateless Streamable-HTTP MCP server (JSON responses, no sessions), so any
 * replica can answer any call. GET and DELETE have no meaning without sessions: 405.
 */
export function mcpRoutes(deps: { bus: Bus; tasks: TaskService; quota: CommandRunQuota; version: string }): Router {
  const router = Router();
  const apps = new DashboardApps(deps.bus);

  // The body is read as text so that malformed JSON gets a JSON-RPC parse error, not a REST one.
  router.post('/mcp', express.text({ type: () => true, limit: JSON_BODY_LIMIT_BYTES }), async (req, res) => {
    const identity = requireIdentity(req);
    if (!identity.scopes.includes(API_KEY_SCOPES[0])) throw new PermissionError(`The API key lacks the ${API_KEY_SCOPES[0]} scope`);
    const { tools } = parseInput(McpQuery, req.query, 'query');
    const text = typeof req.body === 'string' ? req.body : '';
    if (jsonNestedDeeperThan(text)) {
      res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid request: nested more than ${MAX_JSON_DEPTH} levels deep` } });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } });
      return;
    }
    // A tool call is a command run: it draws on the same per-tier budget as REST runs, and a
    // refusal is that call's answer, with the headers of the budget that refused it.
    const takeRun = async () => {
      const taken = await deps.quota.take(identity);
      if (taken?.rejected) res.set(rateLimitHeaders(taken));
      return taken;
    };
    const server = createMcpServer(identity, { ...deps, apps, takeRun, tools });
    // JSON answers, but for a tool call that asked for progress: its notifications need a stream.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(body) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });

  router.all('/mcp', (_req, res) => {
    res.setHeader('Allow', 'POST');
    throw new MethodNotAllowedError('The MCP endpoint is stateless: use POST');
  });

  return router;
}
