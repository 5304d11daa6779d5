import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPackArchive } from '@svc/pack-sdk';
import type { Developer } from './accounts.js';
import { expectCall } from './api.js';

/** A dashboard's main.js of a typical size for a bundled micro-frontend (64 KiB). */
const MAIN_JS = `export function mount(el) { el.textContent = ${JSON.stringify(randomBytes(24 * 1024).toString('base64'))}; }\nexport function unmount() {}\n`.padEnd(64 * 1024, ' ');

/**
 * The B8 file: a public dashboard of the developer with one version whose main.js is MAIN_JS,
 * and the same bytes in a folder of their own for `express.static`. Answers the file's URL path
 * through the gateway (its `entryPoint`) and the folder.
 */
export async function prepareBundle(url: string, developer: Developer): Promise<{ entryPoint: string; staticDir: string }> {
  const name = `bench-${randomBytes(4).toString('hex')}`;
  const created = await expectCall(201, url, '/api/v1/dashboards', { token: developer.token, body: { scope: `@${developer.slug}`, name, visibility: 'public' } });
  const form = new FormData();
  form.append('version', '1.0.0');
  form.append('bundle', new Blob([await createPackArchive({ 'main.js': MAIN_JS })], { type: 'application/gzip' }), 'bundle.tar.gz');
  const uploaded = await fetch(`${url}/api/v1/dashboards/${created.data.id}/versions`, { method: 'POST', headers: { authorization: `Bearer ${developer.token}` }, body: form });
  if (uploaded.status !== 201) throw new Error(`uploading the B8 bundle: ${uploaded.status} ${await uploaded.text()}`);
  const dashboard = await expectCall(200, url, `/api/v1/dashboards/${name}`, { token: developer.token });
  const staticDir = await mkdtemp(join(tmpdir(), 'svc-bench-static-'));
  await writeFile(join(staticDir, 'main.js'), MAIN_JS);
  return { entryPoint: dashboard.data.entryPoint, staticDir };
}
