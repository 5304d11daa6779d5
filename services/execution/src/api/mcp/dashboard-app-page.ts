import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { transform } from 'esbuild';

/**
 * The page an MCP Apps host shows for a command's dashboard: one HTML document that carries
 * everything it runs, because hosts render it in a sandboxed frame whose CSP lets it load
 * nothing from elsewhere (no `resourceDomains` are declared). Inline are the ext-apps `App`
 * (which speaks to the host over `postMessage`) and the dashboard's `main.js`, each turned from
 * an ES module into a script by esbuild (an inline module cannot be imported, and the frame's
 * CSP refuses `blob:` and `data:` modules). The page then mounts the dashboard with the SDK's
 * `context`, whose `api.run` calls the pack's commands as tools through the host.
 */

/** The `context` shape handed to `mount` (what `svc dashboard dev` and the console hand it). */
const DASHBOARD_SDK_VERSION = '1.0.0';

/** The ext-apps `App` as a script that sets `McpApps`: made once per process. */
let appLibrary: Promise<string> | undefined;

function appLibraryScript(): Promise<string> {
  appLibrary ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');
    return (await transform(await readFile(path, 'utf8'), { format: 'iife', globalName: 'McpApps', minify: true })).code;
  })();
  appLibrary.catch(() => (appLibrary = undefined));
  return appLibrary;
}

/** A dashboard's `main.js` as a script that sets `SvcDashboard` to its exports (`mount`, `unmount`). */
export async function dashboardScript(mainJs: string): Promise<string> {
  return (await transform(mainJs, { format: 'iife', globalName: 'SvcDashboard', loader: 'js' })).code;
}

/** Code inside `<script>`: nothing in it may close the element or open a comment. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface DashboardAppPage {
  /** The dashboard's name, and its scope without `@`. */
  name: string;
  namespace: string;
  version: string;
  /** The pack of the command the page is the UI of: `run('command')` means one of its commands. */
  pack: string;
  /** `dashboardScript` of its `main.js`. */
  script: string;
}

/**
 * The bootstrap: connect to the host, then mount. `api.run(command, input)` takes
 * `@scope/pack/command`, `scope/pack/command` or a tool name, or `command` (of the linked pack);
 * a pending answer (medium and long commands) is followed with `svc__task_get` to its end.
 * There is no `api.request`: the REST API is not reachable from a host's frame.
 */
function bootstrap(page: DashboardAppPage): string {
  const settings = JSON.stringify({ sdkVersion: DASHBOARD_SDK_VERSION, dashboard: { name: page.name, namespace: page.namespace, version: page.version }, namespace: page.namespace, pack: page.pack });
  return `
const settings = ${settings};
const element = document.getElementById('svc-dashboard');
const app = new McpApps.App({ name: 'svc-dashboard', version: settings.sdkVersion }, {});
const toolOf = (command) => {
  const parts = String(command).replace(/^@/, '').split(/__|\\//);
  if (parts.length === 3) return parts.join('__');
  if (parts.length === 1) return [settings.namespace, settings.pack, parts[0]].join('__');
  throw new Error('Name a command as @scope/pack/command, or by its name in ' + settings.namespace + '/' + settings.pack);
};
const call = async (name, args) => {
  const result = await app.callServerTool({ name, arguments: args });
  const text = (result.content || []).find((block) => block.type === 'text');
  const body = text ? JSON.parse(text.text) : {};
  if (result.isError) throw Object.assign(new Error(body.error || 'The command failed'), { type: body.type, body });
  return body;
};
const run = async (command, input = {}) => {
  const body = await call(toolOf(command), input);
  if (!body.pending) return body.result;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { task } = await call('svc__task_get', { task_id: body.task_id });
    if (task.status === 'success') return task.result;
    if (['failure', 'timeout', 'revoked'].includes(task.status)) throw new Error((task.error && task.error.message) || task.status);
  }
};
const request = async () => { throw new Error('The REST API is not reachable from an agent host; use api.run'); };
const context = { sdkVersion: settings.sdkVersion, dashboard: settings.dashboard, host: 'mcp-app', toolResult: null, api: { baseUrl: null, request, run } };
app.ontoolresult = (result) => {
  context.toolResult = result;
  element.dispatchEvent(new CustomEvent('svc:tool-result', { detail: result }));
};
await app.connect();
SvcDashboard.mount(element, context);
window.addEventListener('pagehide', () => SvcDashboard.unmount && SvcDashboard.unmount(element));
`;
}

/** The HTML document of the page (`text/html;profile=mcp-app`). */
export async function dashboardAppHtml(page: DashboardAppPage): Promise<string> {
  const scripts = [await appLibraryScript(), page.script, bootstrap(page)].map(inlineScript).join('\n;\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(page.name)}</title></head>
<body><div id="svc-dashboard"></div>
<script type="module">
${scripts}
</script></body></html>
`;
}
