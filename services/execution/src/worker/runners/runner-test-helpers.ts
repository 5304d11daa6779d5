import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallContext } from './runner-protocol.js';

export { capturingLogger, type LogEntry } from '@svc/testing';

/** Temporary folders holding test packs, removed together. */
export class PackFolders {
  readonly #roots: string[] = [];

  /** Writes `files` (path relative to the pack → source) into a fresh pack folder. */
  async create(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'svc-pack-'));
    // Runners run as another uid when the tests run as root: they must be able to reach the pack.
    await chmod(root, 0o755);
    this.#roots.push(root);
    const packDir = join(root, 'pack');
    for (const [path, source] of Object.entries({ 'pack.yaml': 'schema_version: 1\n', ...files })) {
      await mkdir(dirname(join(packDir, path)), { recursive: true });
      await writeFile(join(packDir, path), source);
    }
    return packDir;
  }

  async removeAll(): Promise<void> {
    await Promise.all(this.#roots.map((root) => rm(root, { recursive: true, force: true })));
  }
}

export function callContext(overrides: Partial<CallContext> = {}): CallContext {
  return { tenant: 'tenant-a', user: 'user-a', correlationId: 'corr-1', ...overrides };
}
