import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scratchHome, svc } from '../testing/run-cli.js';

/** An MCP server of someone else's (stateless, JSON answers) with one tool, `shout`; it records the Authorization header of each request. */
async function otherMcpServer(): Promise<{ url: string; server: Server; authorizations: (string | undefined)[] }> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    authorizations.push(req.headers.authorization);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const mcp = new McpServer({ name: 'elsewhere', version: '2.0.0' });
    mcp.registerTool('shout', { description: 'Upper-cases a text', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ result: text.toUpperCase() }) }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server, authorizations };
}

describe('svc mcp with a server given by its URL', () => {
  let home: Awaited<ReturnType<typeof scratchHome>>;
  let other: Awaited<ReturnType<typeof otherMcpServer>>;
  const run = (args: string[]) => svc([...args, '-o', 'json'], { cwd: home.dir, env: { ...home.env, SVC_TOKEN: 'sk-svc-' + 'e'.repeat(64) } });

  beforeAll(async () => {
    home = await scratchHome();
    other = await otherMcpServer();
  });
  afterAll(async () => {
    other?.server.close();
    await home?.remove();
  });

  it('lists, calls and tests the tools of a server that is not configured, sending it no credentials of the platform', async () => {
    const listed = await run(['mcp', 'list-tools', other.url, '--schema']);
    expect(listed.code, listed.stdout + listed.stderr).toBe(0);
    expect(listed.json().data).toMatchObject({ server: other.url, tools: [{ name: 'shout', description: 'Upper-cases a text', input_schema: expect.objectContaining({ type: 'object' }) }] });
    const called = await run(['mcp', 'call', other.url, 'shout', '{"text": "hi"}']);
    expect(called.json().data).toMatchObject({ server: other.url, tool: 'shout', result: 'HI' });
    const tested = await run(['mcp', 'test', other.url]);
    expect(tested.json().data).toMatchObject({ server: other.url, url: other.url, ok: true, server_info: { name: 'elsewhere', version: '2.0.0' }, tools: 1 });
    expect(other.authorizations.length).toBeGreaterThan(0);
    expect(other.authorizations.every((header) => header === undefined)).toBe(true);
  });

  it('refuses what is neither a known name nor an http(s) URL', async () => {
    for (const server of ['nowhere', 'ftp://example.test/mcp']) {
      const reply = await run(['mcp', 'list-tools', server]);
      expect([reply.code, reply.json().error.code], server).toEqual([3, 'MCP_SERVER_UNKNOWN']);
    }
  });
});
