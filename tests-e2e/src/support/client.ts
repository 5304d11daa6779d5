import { responseChecker } from './openapi.js';
import { rememberSecretsOf } from './secrets.js';

/** A thin fetch wrapper for black-box calls through the gateway. */
export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Raw body sent as is (for malformed or oversized input). */
  raw?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export function client(baseUrl: string) {
  return async function call(path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined = options.raw;
    if (options.body !== undefined) {
      rememberSecretsOf(options.body, path.startsWith('/api/v1/secrets/'));
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const method = options.method ?? (body === undefined ? 'GET' : 'POST');
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON; tests assert on the raw text.
    }
    rememberSecretsOf(parsed);
    return expectDescribed(method, path, { status: res.status, headers: res.headers, body: parsed });
  };
}

/**
 * Fails the test when a JSON answer is not what the public OpenAPI document says this method
 * and path answer with this status; every reply the suite sees goes through here.
 */
export function expectDescribed(method: string, path: string, reply: Reply): Reply {
  const problem = responseChecker().check(method, path, reply.status, reply.headers.get('content-type'), reply.body);
  if (problem) throw new Error(problem);
  return reply;
}

export type Call = ReturnType<typeof client>;

/** The `svc_refresh` value of a response's Set-Cookie, if any. */
export function refreshCookie(reply: Reply): string | undefined {
  const cookies = reply.headers.getSetCookie();
  const cookie = cookies.find((c) => c.startsWith('svc_refresh='));
  return cookie?.split(';')[0]?.slice('svc_refresh='.length) || undefined;
}
