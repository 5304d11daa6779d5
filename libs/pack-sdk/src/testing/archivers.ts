import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function inFolder<T>(files: Record<string, string>, work: (folder: string, scratch: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(tmpdir(), 'svc-archiver-'));
  try {
    const folder = join(scratch, 'src');
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), content);
    }
    return await work(folder, scratch);
  } catch (err) {
    throw new Error(`archiving failed: ${(err as Error).message}`, { cause: err });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `files` packed the usual way with the system's GNU tar, `tar czf x.tgz -C folder .`: entries
 * `./`, `./pack.yaml`, `./commands/`, …
 */
export function tarballByGnuTar(files: Record<string, string>): Promise<Buffer> {
  return inFolder(files, async (folder, scratch) => {
    const out = join(scratch, 'pack.tgz');
    await run('tar', ['czf', out, '-C', folder, '.']);
    return readFile(out);
  });
}

/**
 * `files` packed by `npm pack` (with a package.json added when there is none): every entry
 * under `package/`.
 */
export function tarballByNpmPack(files: Record<string, string>): Promise<Buffer> {
  const withManifest = { 'package.json': JSON.stringify({ name: 'svc-test-pack', version: '1.0.0' }), ...files };
  return inFolder(withManifest, async (folder, scratch) => {
    const out = join(scratch, 'out');
    await mkdir(out);
    await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', out], { cwd: folder });
    const [tarball] = await readdir(out);
    return readFile(join(out, tarball!));
  });
}
