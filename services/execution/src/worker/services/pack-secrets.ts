import type { Bus } from '@svc/bus';
import { SECRETS_RESOLVE_RPC } from '@svc/contracts';
import type { PackManifests } from './pack-manifests.js';

const RESOLVE_TIMEOUT_MS = 5000;

/**
 * `ctx.secrets` of a run: the secrets its pack declares in `pack.yaml`, of the tenant the run is
 * for, asked of the storage service for each run of such a pack (a change is seen by the next
 * run). A pack that declares none costs nothing: its manifest is read once per version
 * (`PackManifests`).
 */
export class PackSecrets {
  constructor(
    private readonly bus: Bus,
    private readonly manifests: PackManifests,
  ) {}

  async forRun(run: { packDir: string; namespace: string; tenantId: string }): Promise<Record<string, string> | undefined> {
    const manifest = await this.manifests.of(run.packDir);
    if (manifest.secrets.length === 0) return undefined;
    const { secrets } = await this.bus.request(SECRETS_RESOLVE_RPC, { tenantId: run.tenantId, namespace: run.namespace, pack: manifest.pack.name }, { timeoutMs: RESOLVE_TIMEOUT_MS });
    return Object.fromEntries(manifest.secrets.filter((name) => name in secrets).map((name) => [name, secrets[name]!]));
  }

}
