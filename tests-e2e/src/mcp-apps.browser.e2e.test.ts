import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolRequest, CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, developerAndStranger, type TestUser } from './support/accounts.js';
import { launchChromium, type TestBrowser } from './support/browser.js';
import { client, type Call } from './support/client.js';
import { bundleOf, createDashboard, uploadBundle } from './support/dashboards.js';
import { installPack } from './support/execution.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { connectMcp } from './support/mcp.js';

const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The dashboard: it shows the tool result the host hands it, and runs the pack's `echo` through
 * the host as soon as it is mounted.
 */
const DASHBOARD_MAIN = `
export function mount(element, context) {
  const answer = document.createElement('p');
  answer.id = 'answer';
  answer.textContent = 'running';
  const shown = document.createElement('p');
  shown.id = 'tool-result';
  const show = (result) => { shown.textContent = result.content[0].text; };
  if (context.toolResult) show(context.toolResult);
  element.addEventListener('svc:tool-result', (event) => show(event.detail));
  element.append(answer, shown);
  context.api.run('echo', { text: 'asked by the dashboard' }).then(
    (result) => { answer.textContent = JSON.stringify(result); },
    (error) => { answer.textContent = 'failed: ' + error.message; },
  );
}
export function unmount(element) { element.replaceChildren(); }
`;

/**
 * The host's side, as a host that renders MCP Apps runs it: the ext-apps `AppBridge` talking to
 * the app's sandboxed frame over `postMessage`, which loads nothing but the page (the CSP MCP
 * Apps hosts impose when a resource declares no domains). Tool calls from the app go to the
 * host's MCP client: here `hostCallTool`, the test's client in Node.
 */
const HOST_ENTRY = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'";
window.startHost = async (html, toolResult) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: 'e2e-host', version: '1.0.0' }, { serverTools: {} });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html.replace('<head>', '<head><meta http-equiv="Content-Security-Policy" content="' + CSP + '">');
  await initialized;
  await bridge.sendToolResult(toolResult);
};
`;

/** The text of a resource read's one content. */
function textOf(contents: ReadResourceResult['contents']): string {
  const [content] = contents;
  if (!content || !('text' in content)) throw new Error('The resource has no text');
  return content.text;
}

async function hostScript(): Promise<string> {
  const built = await build({
    stdin: { contents: HOST_ENTRY, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return built.outputFiles[0]!.text;
}

describe.each(oneMode('embedded'))("a command's dashboard in an MCP Apps host (%s infrastructure)", (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  let stranger: TestUser;
  let mcp: Client;
  let browser: TestBrowser;
  let uri: string;
  const echoTool = () => `${dev.slug}__board-tools__echo`;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    [dev, stranger] = await developerAndStranger(call);
    const dashboard = await createDashboard(call, dev.token, `@${dev.slug}`, 'echo-board');
    const uploaded = await uploadBundle(fleet.url, dev.token, dashboard.id, await bundleOf([{ name: 'main.js', content: DASHBOARD_MAIN }]), { version: '1.0.0' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    await installPack(fleet.url, call, dev, { namespace: dev.slug, name: 'board-tools', commands: [{ name: 'echo', ui: { dashboard: 'echo-board' } }, { name: 'plain' }] });
    uri = `ui://svc/${dev.slug}/board-tools/dashboards/echo-board`;
    mcp = await connectMcp(fleet.url, (await createApiKey(call, dev, 'mcp-apps')).key);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    try {
      await mcp?.close();
    } finally {
      await fleet?.stop();
    }
  });

  it('links the dashboard to the tool, lists it and reads it as an MCP App page', async () => {
    const { tools } = await mcp.listTools();
    const echo = tools.find((t) => t.name === echoTool())!;
    expect(echo._meta).toEqual({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });
    expect(tools.find((t) => t.name === `${dev.slug}__board-tools__plain`)!._meta).toBeUndefined();
    const catalogued = await call(`/api/v1/commands/${dev.slug}/echo`, { token: dev.token });
    expect(catalogued.body.data.ui).toEqual({ dashboard: 'echo-board' });

    expect(mcp.getServerCapabilities()).toMatchObject({ resources: {} });
    const { resources } = await mcp.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri, name: 'echo-board', mimeType: APP_MIME_TYPE })]);
    const read = await mcp.readResource({ uri });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri, mimeType: APP_MIME_TYPE });
    expect(textOf(read.contents)).toMatch(/^<!doctype html>/);
  });

  it("keeps the page from whoever may not see the dashboard, and from another namespace's commands", async () => {
    const theirs = await connectMcp(fleet.url, (await createApiKey(call, stranger, 'mcp-apps')).key);
    try {
      // The pack is public; the dashboard is private to its owner.
      expect((await theirs.listTools()).tools.some((t) => t.name === echoTool())).toBe(true);
      await expect(theirs.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    } finally {
      await theirs.close();
    }
    await expect(mcp.readResource({ uri: `ui://svc/${stranger.slug}/board-tools/dashboards/echo-board` })).rejects.toMatchObject({ code: -32002 });
    await expect(mcp.readResource({ uri: 'ui://svc/../../etc/passwd' })).rejects.toMatchObject({ code: -32002 });
    await expect(mcp.readResource({ uri: `ui://svc/${dev.slug}/board-tools/dashboards/${'x'.repeat(51)}` })).rejects.toMatchObject({ code: -32002 });
  });

  it('renders in a host, shows the tool result and runs a command of its pack through the host', async () => {
    const toolResult = (await mcp.callTool({ name: echoTool(), arguments: { text: 'asked by the agent' } })) as CallToolResult;
    const html = textOf((await mcp.readResource({ uri })).contents);
    const relayed: string[] = [];
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.exposeFunction('hostCallTool', async (params: CallToolRequest['params']) => {
      relayed.push(params.name);
      return mcp.callTool(params);
    });
    await page.setContent(`<!doctype html><html><body><script>${await hostScript()}</script></body></html>`);
    await page.evaluate(([pageHtml, result]) => (globalThis as unknown as { startHost(h: string, r: unknown): Promise<void> }).startHost(pageHtml, result), [html, toolResult] as const);

    const frame = await (async (): Promise<Frame> => {
      for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        const found = page.frames().find((f) => f !== page.mainFrame());
        if (found) return found;
      }
      throw new Error('The host made no frame');
    })();
    // Read from outside the page: the frame's CSP refuses the evaluation of strings.
    await expect.poll(() => frame.textContent('#answer'), { timeout: 20_000 }).not.toBe('running');
    expect(JSON.parse((await frame.textContent('#answer'))!)).toEqual({ echoed: { text: 'asked by the dashboard' } });
    await expect.poll(() => frame.textContent('#tool-result'), { timeout: 10_000 }).toBeTruthy();
    expect(JSON.parse((await frame.textContent('#tool-result'))!)).toMatchObject({ result: { echoed: { text: 'asked by the agent' } } });
    expect(relayed).toEqual([echoTool()]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
