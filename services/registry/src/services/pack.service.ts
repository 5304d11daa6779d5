import semver from 'semver';
import { tenantIdsOf, type Identity } from '@svc/auth';
import type { EventOutbox } from '@svc/bus';
import { PackIdParam } from '@svc/contracts';
import { NotFoundError, type Logger } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { parsePackRef } from '@svc/pack-sdk';
import type { BlobStore } from '../blobs/blob-store.js';
import { CommandRepository } from '../repositories/command.repository.js';
import { PackRepository } from '../repositories/pack.repository.js';
import { VersionRepository } from '../repositories/version.repository.js';
import { requireDeveloperMode } from './access.js';
import { commandNameTaken, packNotFound } from './errors.js';
import { requireOwnedPack } from './ownership.js';

/** `latest` is the highest release; prereleases count only when there is no release at all. */
export function latestOf(versions: string[]): string | undefined {
  const releases = versions.filter((v) => semver.prerelease(v) === null);
  return semver.rsort(releases.length > 0 ? releases : [...versions])[0];
}

export class PackService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly events: EventOutbox,
    private readonly log: Logger,
  ) {}

  /** Makes a published version the pack's active one: its commands replace the previous version's. */
  async install(identity: Identity, input: { name: string; version: string }) {
    requireDeveloperMode(identity, 'install packs');
    const ref = parsePackRef(input.name)!;
    const found = await requireOwnedPack(this.db, identity, await new PackRepository(this.db).findByName(ref.namespace, ref.name), { name: input.name }, 'install');
    const { pack } = found;
    const versions = new VersionRepository(this.db);
    const wanted = input.version === 'latest' ? latestOf((await versions.listOf(pack.id)).map((v) => v.version)) : input.version;
    const target = wanted === undefined ? undefined : await versions.find(pack.id, wanted);
    if (!target) throw new NotFoundError(`${input.name} has no published version ${input.version}`, { name: input.name, version: input.version });

    const commands = new CommandRepository(this.db);
    const names = await commands.namesOf(target.id);
    const previous = found.active?.version ?? null;
    if (found.active?.id !== target.id) {
      try {
        await this.events.transaction(async (tx, out) => {
          const clashes = await new CommandRepository(tx).activeClashes(pack.namespace, names, pack.id);
          if (clashes.length > 0) throw commandNameTaken(pack.namespace, clashes);
          await new CommandRepository(tx).activate(pack.id, target.id);
          await new PackRepository(tx).setActiveVersion(pack.id, target.id, identity.userId);
          out.publish('pack.installed', {
            pack_id: pack.id,
            version_id: target.id,
            tenant_id: pack.ownerTenantId,
            user_id: identity.userId,
            namespace: pack.namespace,
            name: pack.name,
            version: target.version,
            previous_version: previous,
            visibility: target.visibility,
            commands: names,
          });
        });
      } catch (err) {
        // Another pack of the namespace took one of the names between the check and the write.
        if (violatedUniqueConstraint(err) === 'commands_active_name_idx') throw commandNameTaken(pack.namespace, names.map((command) => ({ command, pack: '(another pack)' })));
        throw err;
      }
    }

    const message = previous === null ? `Installed ${input.name} ${target.version}` : previous === target.version ? `${input.name} ${target.version} is already installed` : `Installed ${input.name} ${target.version} (was ${previous})`;
    return { pack: { id: pack.id, namespace: pack.namespace, name: pack.name, version: target.version, commands: names }, message };
  }

  /** The installed packs of every tenant the caller belongs to. */
  async list(identity: Identity) {
    const rows = await new PackRepository(this.db).listInstalled(tenantIdsOf(identity));
    return {
      packs: rows.map((row) => ({
        id: row.pack.id,
        name: row.pack.name,
        namespace: row.pack.namespace,
        version: row.version,
        visibility: row.visibility,
        commands: row.commands,
        installed_at: row.pack.installedAt!.toISOString(),
        status: 'active' as const,
      })),
    };
  }

  /** Removes the pack with every version, command and grant, and its package files. */
  async uninstall(identity: Identity, packId: string) {
    requireDeveloperMode(identity, 'uninstall packs');
    const packs = new PackRepository(this.db);
    // A malformed id names no pack: 404, as for an unknown one.
    const found = PackIdParam.safeParse(packId).success ? await packs.findById(packId) : undefined;
    const { pack, active } = await requireOwnedPack(this.db, identity, found, { pack_id: packId }, 'uninstall');
    const versions = await new VersionRepository(this.db).listOf(pack.id);
    const names = active ? await new CommandRepository(this.db).namesOf(active.id) : [];
    await this.events.transaction(async (tx, out) => {
      if (!(await new PackRepository(tx).delete(pack.id))) throw packNotFound({ pack_id: packId });
      out.publish('pack.uninstalled', {
        pack_id: pack.id,
        tenant_id: pack.ownerTenantId,
        user_id: identity.userId,
        namespace: pack.namespace,
        name: pack.name,
        version: active?.version ?? null,
        commands: names,
      });
    });

    await Promise.all(
      versions.map((version) =>
        this.blobs.delete(version.blobKey).catch((err: Error) => this.log.error('package file not removed', { blob_key: version.blobKey, error: err.message })),
      ),
    );
    return { message: `Uninstalled @${pack.namespace}/${pack.name}` };
  }
}
