import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { BuildContext } from 'esbuild';
import { dashboardBuildOptions, esbuild, findEntry } from './build.js';
import { DASHBOARD_SDK_VERSION } from './manifest.js';

export interface DashboardDevOptions {
  dir: string;
  manifest: { name: string; namespace: string; version: string };
  /** Where `/api/*` is forwarded: the platform. */
  apiUrl: string;
  /** Sent with forwarded calls, so the page never holds it. */
  token: string | undefined;
  log: (line: string) => void;
}

const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'content-encoding']);

/** The page that hosts the dashboard: it mounts `/main.js`, and on each rebuild unmounts and mounts the new one. */
function hostPage(options: DashboardDevOptions): string {
  const dashboard = JSON.stringify(options.manifest);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${options.manifest.name} — svc dashboard dev</title></head>
<body><div id="root"></div>
<script type="module">
const element = document.getElementById('root');
const request = async (path, init = {}) => {
  const res = await fetch('/api' + path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw Object.assign(new Error(body?.error?.message ?? res.statusText), { status: res.status, body });
  return body;
};
const run = async (command, input = {}) => {
  const [namespace, name] = command.split(/[./]/);
  let reply = await request('/api/v1/commands/' + namespace + '/' + name, { method: 'POST', body: JSON.stringify(input) });
  while (reply.data?.task_id && !('result' in reply.data)) {
    await new Promise((r) => setTimeout(r, 500));
    const task = await request('/api/v1/tasks/' + reply.data.task_id);
    if (task.data.status === 'success') return task.data.result;
    if (['failure', 'timeout', 'revoked'].includes(task.data.status)) throw new Error(task.data.error?.message ?? task.data.status);
  }
  return reply.data.result;
};
const context = { sdkVersion: '${DASHBOARD_SDK_VERSION}', dashboard: ${dashboard}, api: { baseUrl: location.origin + '/api', request, run } };
let current;
async function load(version) {
  if (current?.unmount) current.unmount(element);
  element.replaceChildren();
  current = await import('/main.js?v=' + version);
  current.mount(element, context);
}
await load(0);
new EventSource('/events').addEventListener('rebuilt', (event) => load(event.data).catch((error) => console.error(error)));
</script></body></html>
`;
}

/**
 * `svc dashboard dev`: the dashboard built by esbuild on every change and served with a host page,
 * the platform's API forwarded under `/api` with the signed-in token.
 */
export async function startDashboardDev(options: DashboardDevOptions): Promise<{ server: Server; build: BuildContext }> {
  let bundle = '';
  let failure: string | undefined;
  let version = 0;
  const listeners = new Set<ServerResponse>();
  const base = dashboardBuildOptions(options.dir, await findEntry(options.dir), { minify: false, sourcemap: true });
  const build = await (await esbuild()).context({
    ...base,
    write: false,
    outfile: 'main.js',
    plugins: [
      ...(base.plugins ?? []),
      {
        name: 'svc-dev-reload',
        setup(pluginBuild) {
          pluginBuild.onEnd((result) => {
            failure = result.errors.length ? result.errors.map((e) => e.text).join('\n') : undefined;
            if (failure) return options.log(`build failed: ${failure}`);
            bundle = result.outputFiles?.find((file) => file.path.endsWith('main.js'))?.text ?? '';
            version += 1;
            options.log(`built main.js (${bundle.length} bytes)`);
            for (const res of listeners) res.write(`event: rebuilt\ndata: ${version}\n\n`);
          });
        },
      },
    ],
  });
  await build.watch();

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: { code: 'INTEGRATION_ERROR', message: `The platform at ${options.apiUrl} could not be reached: ${err.message}` } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(hostPage(options));
    }
    if (url.pathname === '/main.js') {
      res.writeHead(failure ? 500 : 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(failure ? `throw new Error(${JSON.stringify(failure)});` : bundle);
    }
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
      return;
    }
    if (url.pathname.startsWith('/api/')) return forward(req, res, url);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }

  async function forward(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !HOP_HEADERS.has(name) && name !== 'cookie') headers[name] = value;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const target = `${options.apiUrl}${url.pathname.slice('/api'.length)}${url.search}`;
    const reply = await fetch(target, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out: Record<string, string> = {};
    reply.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name) && name !== 'set-cookie') out[name] = value;
    });
    res.writeHead(reply.status, out);
    res.end(Buffer.from(await reply.arrayBuffer()));
  }

  return { server, build };
}
