import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { responseChecker } from './openapi.js';

const JSON_TYPE = /^application\/json\b/i;

/**
 * How a reply of the MCP endpoint departs from the public OpenAPI document, if it does: its
 * media type must be one the document lists for its status, and a JSON body must match the
 * schema. Event streams are held to their media type only (the document describes none).
 */
async function mismatchOf(method: string, url: string, reply: Response): Promise<string | undefined> {
  const checker = responseChecker();
  const contentType = reply.headers.get('content-type');
  const undescribed = checker.checkMediaType(method, url, reply.status, contentType);
  if (undescribed || !contentType || !JSON_TYPE.test(contentType)) return undescribed;
  // A clone, so that the caller still reads the body itself.
  const text = await reply.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `The answer to ${method} ${url} → ${reply.status} says ${contentType} but is not JSON: ${text.slice(0, 200)}`;
  }
  return checker.check(method, url, reply.status, contentType, body);
}

class UndescribedReplyError extends Error {}

/**
 * `fetch` for the MCP endpoint whose replies must be as the OpenAPI document describes them: a
 * mismatch rejects the call with a description of it.
 */
export const describedFetch: FetchLike = async (url, init) => {
  const reply = await fetch(url, init);
  const mismatch = await mismatchOf(init?.method ?? 'GET', String(url), reply);
  if (mismatch) throw new UndescribedReplyError(mismatch);
  return reply;
};

/**
 * The SDK sends some requests in the background (the GET that would open a server stream), so
 * their failures reach no caller; `close()` fails for any mismatch seen since connecting.
 */
class DescribedClient extends Client {
  constructor(private readonly mismatches: string[]) {
    super({ name: 'e2e', version: '1.0.0' });
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.mismatches.length > 0) throw new Error(`MCP answers not as the OpenAPI document describes them:\n${this.mismatches.join('\n')}`);
  }
}

/**
 * An MCP SDK client connected to the gateway's `/mcp` with an API key, every HTTP reply it
 * receives checked against the OpenAPI document.
 *
 * @example
 *   const mcp = await connectMcp(fleet.url, key);            // or { tools: 'installed' }
 *   const { tools } = await mcp.listTools();
 *   await mcp.close(); // fails if any reply did not match the document
 */
export async function connectMcp(baseUrl: string, apiKey: string, options: { tools?: 'all' | 'installed' } = {}): Promise<Client> {
  const mismatches: string[] = [];
  const mcp = new DescribedClient(mismatches);
  const url = new URL(`${baseUrl}/mcp`);
  if (options.tools) url.searchParams.set('tools', options.tools);
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (url, init) =>
      describedFetch(url, init).catch((error: unknown) => {
        if (error instanceof UndescribedReplyError) mismatches.push(error.message);
        throw error;
      }),
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await mcp.connect(transport);
  return mcp;
}
