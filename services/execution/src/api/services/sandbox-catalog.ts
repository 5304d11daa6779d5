import type { Identity } from '@svc/auth';
import type { ResolvedCommand } from '@svc/contracts';
import type { Db } from '@svc/db';
import type { CommandCatalog } from '../../core/command-catalog.js';
import { SandboxPackageRepository } from '../../core/repositories/sandbox-package.repository.js';
import { sandboxPackId, sandboxVersionId } from '../../core/sandbox-packs.js';

/** The commands of the packs the caller synced into their sandbox: theirs alone, private. */
export class SandboxCatalog implements CommandCatalog {
  private readonly packages: SandboxPackageRepository;

  constructor(db: Db) {
    this.packages = new SandboxPackageRepository(db);
  }

  async resolve(identity: Identity, path: { namespace: string; name: string }): Promise<ResolvedCommand | null> {
    const synced = await this.packages.withCommand(identity.userId, path.namespace, path.name);
    const command = synced?.manifest.commands.find((c) => c.name === path.name);
    if (!synced || !command) return null;
    return {
      namespace: synced.namespace,
      name: command.name,
      description: command.description,
      entry: command.entry,
      input_schema: command.input_schema,
      // Packs synced before output schemas existed have none in their stored manifest.
      output_schema: command.output_schema ?? null,
      timeout: command.timeout,
      retries: command.retries,
      queue: command.queue,
      pack: {
        id: sandboxPackId(identity.userId),
        namespace: synced.namespace,
        name: synced.pack,
        version: synced.version,
        version_id: sandboxVersionId(synced.sha256),
        owner_tenant_id: identity.tenantId,
        visibility: 'private',
      },
      package: { sha256: synced.sha256, size_bytes: synced.sizeBytes },
    };
  }
}
