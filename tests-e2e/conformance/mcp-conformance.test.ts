import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createApiKey, createOrganization, signUp } from '../src/support/accounts.js';
import { client } from '../src/support/client.js';
import { installPack } from '../src/support/execution.js';
import { MODES, startTestFleet, type TestFleet } from '../src/support/fleet.js';

const run = promisify(execFile);
const conformanceBin = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');

/** The suite's server scenarios that apply to the platform: each must pass. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list'];

/** The reference tools these scenarios call; a platform tool is always named `scope__pack__command`. */
const referenceTool = (tool: string) => `calls the reference server's tool \`${tool}\`; platform tools are named scope__pack__command, so none can have that name`;

/** Every other server scenario of the suite, with the reason it does not apply. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability (pack output goes to the platform logs)',
  'completion-complete': 'the server declares no completions capability (it has no prompts or resource templates)',
  'tools-call-simple-text': referenceTool('test_simple_text'),
  'tools-call-image': referenceTool('test_image_content'),
  'tools-call-audio': referenceTool('test_audio_content'),
  'tools-call-embedded-resource': referenceTool('test_embedded_resource'),
  'tools-call-mixed-content': referenceTool('test_multiple_content_types'),
  'tools-call-with-logging': referenceTool('test_tool_with_logging'),
  'tools-call-error': referenceTool('test_error_handling'),
  'tools-call-with-progress': `${referenceTool('test_tool_with_progress')} (progress is tested with the SDK client in mcp-tasks.e2e.test.ts)`,
  'tools-call-sampling': `${referenceTool('test_sampling')}; the platform never sends sampling requests`,
  'tools-call-elicitation': `${referenceTool('test_elicitation')}; the platform never sends elicitation requests`,
  'json-schema-2020-12': referenceTool('json_schema_2020_12_tool'),
  'elicitation-sep1034-defaults': 'needs a tool that elicits input; the platform never sends elicitation requests',
  'elicitation-sep1330-enums': 'needs a tool that elicits input; the platform never sends elicitation requests',
  'server-sse-polling': 'needs sessions and resumable streams; /mcp is stateless (any replica answers any call)',
  'server-sse-multiple-streams': 'needs a session id; /mcp is stateless (any replica answers any call)',
  'resources-read-text': "reads the reference server's resource `test://static-text`; the platform's resources are commands' dashboards (`ui://svc/…`), read in mcp-apps.browser.e2e.test.ts",
  'resources-read-binary': "reads the reference server's resource `test://static-binary`; the platform's resources are commands' dashboards (`ui://svc/…`)",
  'resources-templates-read': 'the server offers no resource templates',
  'resources-subscribe': 'the server declares no resource subscriptions (a stateless server keeps no session to notify)',
  'resources-unsubscribe': 'the server declares no resource subscriptions (a stateless server keeps no session to notify)',
  'prompts-list': 'the server declares no prompts capability',
  'prompts-get-simple': 'the server declares no prompts capability',
  'prompts-get-with-args': 'the server declares no prompts capability',
  'prompts-get-embedded-resource': 'the server declares no prompts capability',
  'prompts-get-with-image': 'the server declares no prompts capability',
  'dns-rebinding-protection': 'applies to localhost servers without authentication; /mcp answers only an API key, which a page rebinding a name to it does not hold',
};

/**
 * A loopback proxy to the gateway's `/mcp` that adds the API key: the suite's client sends no
 * headers of its own.
 */
function authorizingProxy(target: string, apiKey: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host, authorization: `Bearer ${apiKey}` } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

interface Check {
  id: string;
  status: string;
  description: string;
}

/** Runs one server scenario; answers its checks as the suite saved them. */
async function runScenario(url: string, scenario: string): Promise<{ code: number; checks: Check[]; output: string }> {
  const outputDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    const done = await run(process.execPath, [conformanceBin, 'server', '--url', url, '--scenario', scenario, '-o', outputDir], { timeout: 90_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof err.code === 'number' ? err.code : 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
    );
    const [folder] = await readdir(outputDir);
    const checks = folder ? (JSON.parse(await readFile(join(outputDir, folder, 'checks.json'), 'utf8')) as Check[]) : [];
    return { ...done, checks };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

describe('the suite and this list', () => {
  it('names every server scenario of the suite, as run or with the reason it does not apply', async () => {
    const { stdout } = await run(process.execPath, [conformanceBin, 'list', '--server']);
    const listed = [...stdout.matchAll(/^\s+-\s+([a-z0-9-]+)/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });
});

describe.each(MODES)('MCP conformance suite against /mcp (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let proxy: { url: string; server: Server };

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    const call = client(fleet.url);
    const user = await signUp(call, await adminToken(call));
    await createOrganization(call, user);
    // Something to list: a fast tool and one that may run as a task.
    await installPack(fleet.url, call, user, { namespace: user.slug, name: 'conformance', commands: [{ name: 'echo' }, { name: 'later', queue: 'medium', timeout: 60 }] });
    proxy = await authorizingProxy(fleet.url, (await createApiKey(call, user, 'conformance')).key);
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.server.close(resolve));
    await fleet?.stop();
  });

  it.each(APPLICABLE)('passes %s', async (scenario) => {
    const { code, checks, output } = await runScenario(`${proxy.url}/mcp`, scenario);
    const failed = checks.filter((c) => c.status !== 'SUCCESS');
    expect(failed, output).toEqual([]);
    expect(checks.length, output).toBeGreaterThan(0);
    expect(code, output).toBe(0);
  });
});
