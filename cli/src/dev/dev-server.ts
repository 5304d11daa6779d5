import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../errors.js';
import { docsPage } from './docs-page.js';
import type { LocalPack } from './local-pack.js';
import { recordRun } from './stats.js';

/** Largest request body, as the platform's JSON limit. */
export const MAX_BODY_BYTES = 1024 * 1024;

const STATUS_OF: Record<string, number> = { validation: 400, general: 404, command: 502 };
const CODE_OF: Record<string, string> = { validation: 'VALIDATION_FAILED', general: 'NOT_FOUND', command: 'INTEGRATION_ERROR' };

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = type === 'application/json' ? JSON.stringify(body) : String(body);
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(text);
}

/** The platform's error body, so clients written against the platform read the dev server too. */
function sendError(res: ServerResponse, status: number, code: string, message: string, details: Record<string, unknown> = {}): void {
  const type = status === 400 ? 'ValidationError' : status === 404 ? 'NotFoundError' : status === 408 ? 'TimeoutError' : 'CommandError';
  send(res, status, { success: false, error: { type, message, code, details, correlation_id: String(details.correlation_id ?? ''), timestamp: new Date().toISOString() } });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new CliError('validation', `The body is larger than ${MAX_BODY_BYTES} bytes`, { code: 'PAYLOAD_TOO_LARGE' });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('validation', 'The body is not JSON', { code: 'VALIDATION_FAILED' });
  }
}

function summaryOf(pack: LocalPack) {
  const { namespace, version } = pack.manifest.pack;
  return pack.manifest.commands.map((command) => ({
    namespace,
    name: command.name,
    pack: pack.manifest.pack.name,
    version,
    description: command.description,
    input_schema: command.input_schema,
    output_schema: command.output_schema,
    annotations: command.annotations,
    output_format: 'json',
    timeout: command.timeout,
    queue: command.queue,
    tags: command.tags,
  }));
}

export interface DevServerOptions {
  pack: LocalPack;
  docs: boolean;
  log: (line: string) => void;
}

/**
 * The local server of `svc pack dev`, speaking the platform's paths and bodies:
 * `GET /health`, `GET /docs`, `GET /api/v1/commands`, `GET|POST /api/v1/commands/{ns}/{name}`.
 */
export function createDevServer(options: DevServerOptions): Server {
  const { pack } = options;
  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const error = err instanceof CliError ? err : new CliError('general', (err as Error).message);
      const status = error.code === 'TIMEOUT' ? 408 : (STATUS_OF[error.kind] ?? 500);
      sendError(res, status, error.code ?? CODE_OF[error.kind] ?? 'INTERNAL_ERROR', error.message, error.details ?? {});
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (req.method === 'GET' && path === '/health') {
      const { namespace, name, version } = pack.manifest.pack;
      return send(res, 200, { status: 'healthy', pack: { namespace, name, version }, commands: pack.manifest.commands.length });
    }
    if (req.method === 'GET' && path === '/docs' && options.docs) return send(res, 200, docsPage(pack.manifest), 'text/html');
    if (req.method === 'GET' && path === '/api/v1/commands') {
      const commands = summaryOf(pack);
      return send(res, 200, { data: { commands, total: commands.length, page: 1, pages: 1 } });
    }
    const match = /^\/api\/v1\/commands\/([^/]+)\/([^/]+)$/.exec(path);
    if (!match) return sendError(res, 404, 'NOT_FOUND', `No route ${req.method} ${path}`);
    const [namespace, name] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)];
    const command = namespace === pack.manifest.pack.namespace ? pack.command(name) : undefined;
    if (!command) return sendError(res, 404, 'NOT_FOUND', `No command ${namespace}/${name} in this pack`);
    if (req.method === 'GET') return send(res, 200, { data: { ...summaryOf(pack).find((c) => c.name === name), retries: command.retries, queue: command.queue, examples: command.examples } });
    if (req.method !== 'POST') return sendError(res, 404, 'NOT_FOUND', `No route ${req.method} ${path}`);

    const input = await readJson(req);
    const ref = `${namespace}/${name}`;
    const started = performance.now();
    try {
      const run = await pack.run(name, input);
      options.log(`${ref} ok in ${Math.round(run.durationMs)} ms`);
      await recordRun(pack.dir, ref, run.durationMs, true);
      send(res, 200, { data: { result: run.value ?? null, execution: { duration_ms: Math.round(run.durationMs), status: 'completed' } } });
    } catch (err) {
      if (err instanceof CliError && err.kind === 'command') {
        options.log(`${ref} failed: ${err.message}`);
        await recordRun(pack.dir, ref, performance.now() - started, false);
      }
      throw err;
    }
  }
}

/** Listens on `host:port`; a port in use is a clear error (exit code 1). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const message = err.code === 'EADDRINUSE' ? `Port ${port} on ${host} is in use (the platform itself may be there): choose another with --port` : err.message;
      reject(new CliError('general', message, { code: err.code ?? 'LISTEN_FAILED', details: { port, host } }));
    });
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}
