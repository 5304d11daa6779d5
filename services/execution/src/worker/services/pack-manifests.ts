import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, parseManifest, type PackManifest } from '@svc/pack-sdk';

/**
 * The `pack.yaml` of each unpacked pack version a runner serves, read and parsed once per
 * folder (a version's folder never changes), for hooks that act on what a pack declares.
 */
export class PackManifests {
  readonly #manifests = new Map<string, Promise<PackManifest>>();

  of(packDir: string): Promise<PackManifest> {
    let manifest = this.#manifests.get(packDir);
    if (!manifest) {
      manifest = readFile(join(packDir, MANIFEST_FILE), 'utf8').then(parseManifest);
      manifest.catch(() => this.#manifests.delete(packDir));
      this.#manifests.set(packDir, manifest);
    }
    return manifest;
  }
}
