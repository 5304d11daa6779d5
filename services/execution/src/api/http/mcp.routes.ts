import express, { Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireIdentity } from '@svc/auth';
import type { Bus } from '@svc/bus';
import { API_KEY_SCOPES } from '@svc/contracts';
import { AppError, JSON_BODY_LIMIT_BYTES, PermissionError, RateLimitError } from '@svc/core';
import type { CommandRunQuota } from '@svc/rate-limit';
import { createMcpServer } from '../mcp/mcp-server.js';
import type { CommandRunService } from '../services/run.service.js';

function toolCallsIn(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
}

/**
 * `POST /mcp`: a stateless Streamable-HTTP MCP server (JSON responses, no sessions), so any
 * replica can answer any call. GET and DELETE have no meaning without sessions: 405.
 */
export function mcpRoutes(deps: { bus: Bus; runs: CommandRunService; quota: CommandRunQuota; version: string }): Router {
  const router = Router();

  // The body is read as text so that malformed JSON gets a JSON-RPC parse error, not a REST one.
  router.post('/mcp', express.text({ type: () => true, limit: JSON_BODY_LIMIT_BYTES }), async (req, res) => {
    const identity = requireIdentity(req);
    if (!identity.scopes.includes(API_KEY_SCOPES[0])) throw new PermissionError(`The API key lacks the ${API_KEY_SCOPES[0]} scope`);
    let body: unknown;
    try {
      body = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch {
      res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } });
      return;
    }
    // A tool call is a command run: it draws on the same per-tier budget as REST runs.
    for (let calls = toolCallsIn(body); calls > 0; calls -= 1) {
      const taken = await deps.quota.take(identity);
      if (!taken?.rejected) continue;
      const retryAfter = Math.max(1, Math.ceil(taken.state.msBeforeNext / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new RateLimitError(`Command run limit reached; retry in ${retryAfter} s`, { retry_after: retryAfter });
    }
    const server = createMcpServer(identity, deps);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });

  router.all('/mcp', (_req, res) => {
    res.setHeader('Allow', 'POST');
    throw new AppError({ status: 405, code: 'METHOD_NOT_ALLOWED', type: 'MethodNotAllowedError', message: 'The MCP endpoint is stateless: use POST' });
  });

  return router;
}
