import { hostname } from 'node:os';
import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Context } from '../context.js';
import { asCliError, CliError, kindOfStatus, validationError } from '../errors.js';
import { action, integerOption } from '../program.js';
import { API_KEY_PREFIX, clockTime } from '../session.js';
import { waitForTask } from './run.js';

/** The platform's own MCP endpoint, always listed. */
export const PLATFORM_SERVER = 'svc';

export interface McpServer {
  name: string;
  url: string;
  /** `url`: named on the command line by its URL, and not one svc knows. */
  source: 'platform' | 'config' | 'url';
  /** Where its API key comes from; never the key itself. */
  auth: string;
  token?: string;
}

/** The platform's server and those of `[mcp.servers.<name>]` tables (`url`, optional `token`). */
function servers(ctx: Context): McpServer[] {
  const list: McpServer[] = [{ name: PLATFORM_SERVER, url: `${ctx.apiUrl}/mcp`, source: 'platform', auth: 'API key (auth.api_key, or the signed-in token when it is one)' }];
  const configured = (ctx.config.table('mcp')?.servers ?? {}) as Record<string, { url?: unknown; token?: unknown }>;
  for (const [name, server] of Object.entries(configured)) {
    if (typeof server?.url !== 'string') continue;
    list.push({ name, url: server.url, source: 'config', auth: typeof server.token === 'string' ? 'token in the config file' : 'none', token: typeof server.token === 'string' ? server.token : undefined });
  }
  return list;
}

/** An http(s) URL, or undefined for anything else (a server's name). */
function httpUrl(text: string): URL | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Whether two URLs name one endpoint (a trailing slash aside). */
const sameEndpoint = (a: URL, b: URL) => a.origin === b.origin && a.pathname.replace(/\/+$/, '') === b.pathname.replace(/\/+$/, '') && a.search === b.search;

/**
 * A server by its name (`svc`, a `[mcp.servers.NAME]` table) or by its URL. A URL of a server svc
 * knows is that server, with its credentials (the platform's endpoint gets the API key); any other
 * is used as given, without a token.
 */
function findServer(ctx: Context, nameOrUrl: string): McpServer {
  const known = servers(ctx);
  const named = known.find((s) => s.name === nameOrUrl);
  if (named) return named;
  const url = httpUrl(nameOrUrl);
  if (!url) throw validationError(`No MCP server "${nameOrUrl}": give a name \`svc mcp list-servers\` lists, or the server's URL (http:// or https://)`, { code: 'MCP_SERVER_UNKNOWN', details: { server: nameOrUrl } });
  const same = known.find((s) => httpUrl(s.url) !== undefined && sameEndpoint(httpUrl(s.url)!, url));
  return same ?? { name: url.href, url: url.href, source: 'url', auth: 'none' };
}

/**
 * The platform's MCP endpoint takes API keys only. The signed-in token is used when it is one;
 * otherwise the key kept in `auth.api_key`, made once with the session (and kept 0600 with it).
 */
export async function platformApiKey(ctx: Context): Promise<string> {
  const token = ctx.token();
  if (token?.startsWith(API_KEY_PREFIX)) return token;
  const stored = ctx.config.string('auth.api_key');
  if (stored) return stored;
  const name = `svc CLI on ${hostname()}`.slice(0, 100);
  const created = await dataOf(ctx.client().api.POST('/api/v1/account/api-keys', { body: { name, scopes: ['commands:execute'] } }));
  ctx.config.set('auth.api_key', created.key);
  await ctx.config.save();
  ctx.out.note(`Made the API key "${name}" (${created.key_prefix}…) for MCP and kept it in ${ctx.config.path}; \`svc logout\` forgets it.`);
  return created.key;
}

/** The MCP SDK, loaded by the commands that use it only (it is a good part of the client's start-up time). */
async function loadSdk() {
  const [client, transport, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Client: client.Client, StreamableHTTPClientTransport: transport.StreamableHTTPClientTransport, StreamableHTTPError: transport.StreamableHTTPError, McpError: types.McpError };
}
let sdk: Awaited<ReturnType<typeof loadSdk>> | undefined;

/** An MCP failure as the CLI reports it: HTTP statuses as everywhere, JSON-RPC errors as validation. */
function mcpFailure(err: unknown, server: McpServer): CliError {
  if (err instanceof CliError || !sdk) return asCliError(err);
  const { StreamableHTTPError, McpError } = sdk;
  if (err instanceof StreamableHTTPError && err.code !== undefined) {
    const hint = err.code === 401 ? ' (the API key was refused)' : '';
    return new CliError(kindOfStatus(err.code), `${server.name} (${server.url}): ${err.message}${hint}`, { code: `HTTP_${err.code}`, details: { status: err.code } });
  }
  if (err instanceof McpError) {
    const kind = err.code === -32001 ? 'network' : 'validation';
    return new CliError(kind, `${server.name}: ${err.message}`, { code: `MCP_${err.code}`, details: { mcp_code: err.code } });
  }
  return asCliError(err);
}

/** Connects an MCP SDK client to `server`, closed when the invocation ends. */
async function connect(ctx: Context, server: McpServer): Promise<Client> {
  sdk ??= await loadSdk();
  const { Client, StreamableHTTPClientTransport } = sdk;
  const token = server.source === 'platform' ? await platformApiKey(ctx) : server.token;
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } });
  const client = new Client({ name: 'svc-cli', version: ctx.version });
  try {
    await client.connect(transport);
  } catch (err) {
    await client.close().catch(() => {});
    throw mcpFailure(err, server);
  }
  ctx.onExit(() => client.close());
  return client;
}

async function allTools(client: Client) {
  const tools = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function listServers(ctx: Context): Promise<void> {
  const list = servers(ctx).map(({ name, url, source, auth }) => ({ name, url, source, auth }));
  ctx.out.result({ servers: list }, list.map((s) => `${s.name.padEnd(16)} ${s.url}  (${s.source})`).join('\n'));
}

async function listTools(ctx: Context, name: string, options: { tool?: string; schema?: boolean }): Promise<void> {
  const server = findServer(ctx, name);
  const client = await connect(ctx, server);
  let tools = await allTools(client).catch((err: unknown) => Promise.reject(mcpFailure(err, server)));
  if (options.tool) {
    tools = tools.filter((tool) => tool.name === options.tool);
    if (tools.length === 0) throw new CliError('general', `${server.name} has no tool "${options.tool}"`, { code: 'NOT_FOUND' });
  }
  const shown = tools.map((tool) => ({ name: tool.name, description: tool.description ?? '', ...(options.schema || options.tool ? { input_schema: tool.inputSchema } : {}) }));
  const text = shown.map((tool) => [`${tool.name}  ${tool.description}`, ...(tool.input_schema ? [JSON.stringify(tool.input_schema, null, 2)] : [])].join('\n')).join('\n');
  ctx.out.result({ server: server.name, tools: shown }, shown.length ? text : 'No tools.');
}

/** The JSON body of the platform's tool results (Part 1, MCP): a result, a pending task, or a typed error. */
interface PlatformToolBody {
  result?: unknown;
  pending?: boolean;
  task_id?: string;
  error?: string;
  type?: 'validation' | 'command' | 'timeout' | 'internal' | 'rate_limit';
  retry_after?: number;
  correlation_id?: string;
}

const KIND_OF_TOOL_ERROR = { validation: 'validation', command: 'command', timeout: 'command', internal: 'server', rate_limit: 'general' } as const;

/** A tool error as a person reads it: the platform's message, and for a refused run when it may run again. */
function toolErrorMessage(tool: string, body: PlatformToolBody | undefined, text: string | undefined): string {
  const message = body?.error ?? text ?? 'the tool failed';
  if (body?.type !== 'rate_limit' || typeof body.retry_after !== 'number') return `${tool}: ${message}`;
  return `${tool}: ${message} (at ${clockTime(Date.now() + body.retry_after * 1000)}); the free tier runs 5 commands an hour, a developer_preview access code or a paid plan has no such limit (\`svc status\` shows your tier)`;
}

function parseArgs(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw validationError('The tool arguments must be a JSON object, e.g. \'{"text": "hi"}\'', { code: 'ARGUMENTS_INVALID' });
}

async function call(ctx: Context, name: string, tool: string, json: string | undefined, options: { timeout: number }): Promise<void> {
  const args = parseArgs(json);
  const server = findServer(ctx, name);
  const client = await connect(ctx, server);
  const reply = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: options.timeout * 1000 }).catch((err: unknown) => Promise.reject(mcpFailure(err, server)));
  const content = (reply.content ?? []) as Array<{ type: string; text?: string }>;
  const text = content.find((block) => block.type === 'text')?.text;
  let body: PlatformToolBody | undefined;
  try {
    body = text === undefined ? undefined : (JSON.parse(text) as PlatformToolBody);
  } catch {
    body = undefined;
  }
  if (reply.isError) {
    const kind = (body?.type && KIND_OF_TOOL_ERROR[body.type]) || 'command';
    throw new CliError(kind, toolErrorMessage(tool, body, text), { code: body?.type ? `TOOL_${body.type.toUpperCase()}` : 'TOOL_ERROR', details: { server: server.name, tool, ...body } });
  }
  if (server.source === 'platform' && body?.pending && body.task_id) {
    const task = await waitForTask(ctx, ctx.client(ctx.apiUrl, await platformApiKey(ctx)), body.task_id, tool);
    ctx.out.result({ server: server.name, tool, result: task.result, task_id: task.task_id }, JSON.stringify(task.result, null, 2));
    return;
  }
  const result = body && 'result' in body ? body.result : (body ?? content);
  ctx.out.result({ server: server.name, tool, result, correlation_id: body?.correlation_id ?? null }, JSON.stringify(result, null, 2));
}

async function test(ctx: Context, name: string): Promise<void> {
  const server = findServer(ctx, name);
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    ctx.out.debug(`${step}…`);
    try {
      return await work();
    } catch (err) {
      throw mcpFailure(err, server);
    } finally {
      timings[step] = Math.round(performance.now() - started);
    }
  };
  const client = await timed('initialize', () => connect(ctx, server));
  await timed('ping', () => client.ping());
  const tools = await timed('tools/list', () => allTools(client));
  const info = client.getServerVersion();
  const data = { server: server.name, url: server.url, ok: true, server_info: info ?? null, capabilities: client.getServerCapabilities() ?? null, tools: tools.length, latency_ms: timings };
  ctx.out.result(
    data,
    [`${server.name} (${server.url}): ok`, `server ${info?.name ?? '?'} ${info?.version ?? ''}`, `initialize ${timings.initialize} ms, ping ${timings.ping} ms, tools/list ${timings['tools/list']} ms (${tools.length} tools)`].join('\n'),
  );
}

export function registerMcpCommands(program: Command): void {
  const mcp = program.command('mcp').description('use MCP servers (the platform\'s own, and others you configure) through the MCP SDK client');
  mcp
    .command('list-servers')
    .description('the MCP servers svc knows: the platform\'s, and [mcp.servers.NAME] tables of the config file')
    .action(action((ctx) => listServers(ctx)));
  mcp
    .command('list-tools')
    .description('the tools a server offers')
    .argument('<server>', 'a server name (svc: the platform) or its URL')
    .option('--tool <name>', 'only this tool, with its input schema')
    .option('--schema', 'show input schemas')
    .option('--json', 'same as --output json')
    .action(action<{ tool?: string; schema?: boolean }>((ctx, [server], options) => listTools(ctx, server as string, options)));
  mcp
    .command('call')
    .description('call a tool: svc mcp call svc ns__pack__command \'{"text": "hi"}\' (or a server\'s URL for svc)')
    .argument('<server>', 'a server name (svc: the platform) or its URL')
    .argument('<tool>', 'the tool name')
    .argument('[json-args]', 'its arguments, a JSON object')
    .option('--timeout <seconds>', 'give up after this many seconds', integerOption('--timeout', 1, 3600), 30)
    .option('--json', 'same as --output json')
    .action(action<{ timeout: number }>((ctx, [server, tool, json], options) => call(ctx, server as string, tool as string, json as string | undefined, options)));
  mcp
    .command('test')
    .description('check a server: initialize, ping and tools/list, with their times')
    .argument('<server>', 'a server name (svc: the platform) or its URL')
    .option('-v, --verbose', 'show each step')
    .action(action((ctx, [server]) => test(ctx, server as string)));
}
