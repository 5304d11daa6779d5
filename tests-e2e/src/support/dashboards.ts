import { request } from 'node:http';
import { expect } from 'vitest';
import { expectDescribed, type Call, type Reply } from './client.js';

/** A `.tar.gz` written entry by entry as given, however malicious (the packs' helper serves bundles too). */
export { rawTarGz as bundleOf } from './packs.js';

export const MAIN_JS = 'export function mount(el) { el.textContent = "hello"; }\nexport function unmount() {}\n';

/** `POST /api/v1/dashboards/{id}/versions` as the CLI sends it: the bundle in `bundle`, the other fields beside it. */
export async function uploadBundle(baseUrl: string, token: string, dashboardId: string, bytes: Buffer, fields: Record<string, string> = {}): Promise<Reply> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('bundle', new Blob([bytes], { type: 'application/gzip' }), 'bundle.tar.gz');
  const path = `/api/v1/dashboards/${dashboardId}/versions`;
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON; tests assert on the raw text.
  }
  return expectDescribed('POST', path, { status: res.status, headers: res.headers, body });
}

/** Registers a dashboard in `scope` (with `@`) and answers its creation's `data`. */
export async function createDashboard(call: Call, token: string, scope: string, name: string, visibility = 'private') {
  const created = await call('/api/v1/dashboards', { token, body: { scope, name, visibility, description: `The ${name} dashboard`, category: 'analytics' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { id: string; slug: string; scope: string; name: string; visibility: string };
}

/** A raw GET of a file, bytes and headers as sent (no JSON parsing). */
export async function getFile(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${baseUrl}${path}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A GET with the path exactly as written (`..` and `%2e` left alone, unlike fetch's URL parser). */
export function getRawPath(baseUrl: string, path: string, token: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}
