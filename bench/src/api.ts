/** A small JSON client for the set-up calls (load runs use their own clients). */
export interface Reply {
  status: number;
  body: any;
}

export async function call(baseUrl: string, path: string, options: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the error message.
  }
  return { status: res.status, body };
}

/** `call`, failing with the answer when its status is not `expected`. */
export async function expectCall(expected: number, baseUrl: string, path: string, options: Parameters<typeof call>[2] = {}): Promise<any> {
  const reply = await call(baseUrl, path, options);
  if (reply.status !== expected) throw new Error(`${options.method ?? (options.body === undefined ? 'GET' : 'POST')} ${path}: expected ${expected}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}
