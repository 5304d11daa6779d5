import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { ErrorCode, McpError, type ReadResourceResult, type Resource, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Identity } from '@svc/auth';
import type { Bus } from '@svc/bus';
import { READ_DASHBOARD_APP_RPC, type CommandSummary } from '@svc/contracts';
import { dashboardAppHtml, dashboardScript } from './dashboard-app-page.js';

/**
 * Commands whose `pack.yaml` names a dashboard as their UI are offered to hosts that render MCP
 * Apps: the tool links `ui://svc/<scope>/<pack>/dashboards/<name>` in its `_meta`, and
 * `resources/read` of that URI answers the page that shows the dashboard (`dashboard-app-page.ts`).
 */

/** Namespace, pack and dashboard name, each within its own bounds (a dashboard's name is 3-50 characters). */
const APP_URI = /^ui:\/\/svc\/([a-z0-9-]{1,64})\/([a-z0-9-]{1,64})\/dashboards\/([a-z0-9-]{3,50})$/;

/** MCP's code for a resource that does not exist (or that the caller may not see). */
export const RESOURCE_NOT_FOUND = -32002;

export function appResourceUri(namespace: string, pack: string, dashboard: string): string {
  return `ui://svc/${namespace}/${pack}/dashboards/${dashboard}`;
}

/** The `_meta` of a command's tool: its UI, in the current key and the one older hosts read. */
export function toolUiMeta(command: CommandSummary): Tool['_meta'] | undefined {
  if (!command.ui) return undefined;
  const resourceUri = appResourceUri(command.namespace, command.pack, command.ui.dashboard);
  return { ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri };
}

/** The UI resources of a page of commands, each once. */
export function appResourcesOf(commands: CommandSummary[]): Resource[] {
  const byUri = new Map<string, Resource>();
  for (const command of commands) {
    if (!command.ui) continue;
    const uri = appResourceUri(command.namespace, command.pack, command.ui.dashboard);
    byUri.set(uri, {
      uri,
      name: command.ui.dashboard,
      title: `Dashboard ${command.ui.dashboard} of @${command.namespace}/${command.pack}`,
      description: `The dashboard ${command.ui.dashboard}, shown beside the results of @${command.namespace}/${command.pack}'s commands (an MCP App)`,
      mimeType: RESOURCE_MIME_TYPE,
    });
  }
  return [...byUri.values()];
}

/** Scripts made from dashboards' modules, by version (a version's files never change). */
const SCRIPT_CACHE_SIZE = 32;

export class DashboardApps {
  private readonly scripts = new Map<string, Promise<string>>();

  constructor(private readonly bus: Bus) {}

  /**
   * The page of `uri` for `identity`: the dashboard must be one the caller may see, in the
   * namespace the URI names (a command's UI is a dashboard of its own pack's namespace).
   */
  async read(identity: Identity, uri: string): Promise<ReadResourceResult> {
    const parts = APP_URI.exec(uri);
    if (!parts) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 300)}`);
    const [, namespace, pack, slug] = parts as unknown as [string, string, string, string];
    const { app } = await this.bus.request(READ_DASHBOARD_APP_RPC, { identity, slug });
    if (!app || app.scope !== `@${namespace}`) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
    const script = await this.scriptOf(app.version_id, app.main_js).catch(() => {
      throw new McpError(ErrorCode.InvalidParams, `The main.js of dashboard ${slug} ${app.version} is not an ES module this page can run`);
    });
    const text = await dashboardAppHtml({ name: app.name, namespace, version: app.version, pack, script });
    return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text }] };
  }

  private scriptOf(versionId: string, mainJs: string): Promise<string> {
    let script = this.scripts.get(versionId);
    if (!script) {
      if (this.scripts.size >= SCRIPT_CACHE_SIZE) this.scripts.delete(this.scripts.keys().next().value!);
      script = dashboardScript(mainJs);
      script.catch(() => this.scripts.delete(versionId));
      this.scripts.set(versionId, script);
    }
    return script;
  }
}
