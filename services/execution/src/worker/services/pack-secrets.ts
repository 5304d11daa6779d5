import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Bus } from '@svc/bus';
import { SECRETS_RESOLVE_RPC } from '@svc/contracts';
import { MANIFEST_FILE, parseManifest } from '@svc/pack-sdk';

const RESOLVE_TIMEOUT_MS = 5000;

interface Declared {
  pack: string;
  names: string[];
}

/**
 * `ctx.secrets` of a run: the secrets its pack declares in `pack.yaml`, of the tenant the run is
 * for, asked of the storage service for each run of such a pack (a change is seen by the next
 * run). A pack that declares none costs nothing: what a version declares is read once from its
 * unpacked manifest, and kept by version id (versions never change).
 */
export class PackSecrets {
  readonly #declared = new Map<string, Promise<Declared>>();

  constructor(private readonly bus: Bus) {}

  async forRun(run: { packVersionId: string; packDir: string; namespace: string; tenantId: string }): Promise<Record<string, string> | undefined> {
    const declared = await this.#declaredBy(run.packVersionId, run.packDir);
    if (declared.names.length === 0) return undefined;
    const { secrets } = await this.bus.request(SECRETS_RESOLVE_RPC, { tenantId: run.tenantId, namespace: run.namespace, pack: declared.pack }, { timeoutMs: RESOLVE_TIMEOUT_MS });
    return Object.fromEntries(declared.names.filter((name) => name in secrets).map((name) => [name, secrets[name]!]));
  }

  #declaredBy(versionId: string, packDir: string): Promise<Declared> {
    let declared = this.#declared.get(versionId);
    if (!declared) {
      declared = readFile(join(packDir, MANIFEST_FILE), 'utf8').then(
        (text) => {
          const manifest = parseManifest(text);
          return { pack: manifest.pack.name, names: manifest.secrets };
        },
        // Every published package has one; a folder without it declares nothing.
        (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? { pack: '', names: [] } : Promise.reject(err)),
      );
      declared.catch(() => this.#declared.delete(versionId));
      this.#declared.set(versionId, declared);
    }
    return declared;
  }
}
