import { packageOf } from '@svc/pack-sdk/testing';
import { describedFetch } from './mcp.js';

/** Command code of the pack the SDK tests publish through the SDK itself. */
export const SDK_TEST_FILES: Record<string, string> = {
  'commands/echo.js': 'export default async (input) => ({ echoed: input });',
  'commands/count.js': 'let n = 0;\nexport default async () => ({ n: ++n });',
  'commands/fail.js': 'export default async () => { throw new Error("the thing broke"); };',
  'commands/nap.js':
    'export default async (input, ctx) => new Promise((resolve, reject) => { const t = setTimeout(() => resolve({ slept: input.ms }), input.ms); ctx.signal.addEventListener("abort", () => { clearTimeout(t); reject(new Error("aborted")); }); });',
};

/** The package (`.tar.gz`) of the SDK tests' pack, `@<namespace>/tools` 1.0.0. */
export function sdkTestPackage(namespace: string): Promise<Buffer> {
  const nap = { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] };
  return packageOf({
    namespace,
    name: 'tools',
    commands: [
      { name: 'echo' },
      { name: 'count' },
      { name: 'fail' },
      { name: 'nap-long', entry: 'commands/nap.js', input_schema: nap, timeout: 600, queue: 'long' },
    ],
    files: SDK_TEST_FILES,
  });
}

/** The first fenced block of `language` in a markdown text. */
export function firstCodeBlock(markdown: string, language: string): string {
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(markdown);
  if (!match) throw new Error(`no ${language} block`);
  return match[1]!;
}

/**
 * The `fetch` the SDK tests give `@svc/client`: every answer checked against the OpenAPI
 * document, as the suite's own `client()` checks (a mismatch rejects the request).
 */
export const describedSdkFetch: typeof fetch = (input, init) => {
  const request = new Request(input, init);
  const forwarded = { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' };
  return describedFetch(request.url, forwarded as RequestInit);
};
