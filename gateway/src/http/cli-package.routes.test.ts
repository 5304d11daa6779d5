import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestGateway } from '../testing/test-gateway.js';

const SECRET = 'cli-package-secret-0123456789abcdef0123';

describe('GET /cli/svc-cli.tgz', () => {
  let dir: string;
  const gateways: Array<Awaited<ReturnType<typeof serveTestGateway>>> = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-package-'));
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the package file it is given, with its version in the download name, never cached unchecked', async () => {
    const file = join(dir, 'svc-cli.tgz');
    await writeFile(file, Buffer.from('not really gzip, but bytes'));
    const gateway = await serveTestGateway('cli-package-test', SECRET, { cliPackageFile: file, version: '9.8.7' });
    gateways.push(gateway);
    const res = await fetch(`${gateway.url}/cli/svc-cli.tgz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="svc-cli-9.8.7.tgz"');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toEqual(expect.any(String));
    expect(await res.text()).toBe('not really gzip, but bytes');
  });

  it('answers 404 with the error body when it was deployed without the package', async () => {
    const gateway = await serveTestGateway('cli-package-missing', SECRET, { cliPackageFile: join(dir, 'absent.tgz') });
    gateways.push(gateway);
    const res = await fetch(`${gateway.url}/cli/svc-cli.tgz`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('without the CLI package') });
  });
});
