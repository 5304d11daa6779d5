import semver from 'semver';
import { belongsTo, requireDeveloperMode, tenantIdsOf, type Identity } from '@svc/auth';
import type { EventOutbox } from '@svc/bus';
import { PackIdParam, type InstalledPackList, type PackInstallResult } from '@svc/contracts';
import { NotFoundError, type Logger } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { parsePackRef, type ProposedSchedule } from '@svc/pack-sdk';
import type { BlobStore } from '@svc/blobs';
import { CommandRepository } from '../repositories/command.repository.js';
import { InstallationRepository } from '../repositories/installation.repository.js';
import { PackRepository, type PackVersionRow, type PackWithActive } from '../repositories/pack.repository.js';
import { VersionRepository } from '../repositories/version.repository.js';
import { commandNameTaken, packNotFound } from './errors.js';
import { mayReach, notPackOwner, seesPack } from './ownership.js';

/** `latest` is the highest release; prereleases count only when there is no release at all. */
export function latestOf(versions: string[]): string | undefined {
  const releases = versions.filter((v) => semver.prerelease(v) === null);
  return semver.rsort(releases.length > 0 ? releases : [...versions])[0];
}

/** The schedules a version proposes (`schedules:` of its `pack.yaml`); none for versions published before they existed. */
const proposedSchedulesOf = (version: PackVersionRow): ProposedSchedule[] => (version.manifest as { schedules?: ProposedSchedule[] }).schedules ?? [];

const refOf = (pack: { namespace: string; name: string }) => `@${pack.namespace}/${pack.name}`;
const noSuchVersion = (name: string, version: string) => new NotFoundError(`${name} has no published version ${version}`, { name, version });

/**
 * Installed packs, two kinds of caller (registry README, "Installing"): a member of the tenant
 * that owns a pack *releases* a published version (it becomes the pack's active version, what
 * the catalog shows and every caller without a pin runs); anybody else *installs* a pack they
 * can see into their own tenant, following the active version or pinned to one. Removing is
 * the same split: the owner's developers delete the published pack, anybody else their
 * tenant's installation.
 */
export class PackService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly events: EventOutbox,
    private readonly log: Logger,
  ) {}

  async install(identity: Identity, input: { name: string; version: string }): Promise<PackInstallResult> {
    const ref = parsePackRef(input.name)!;
    const found = await new PackRepository(this.db).findByName(ref.namespace, ref.name);
    if (!found) throw packNotFound({ name: input.name });
    if (belongsTo(identity, found.pack.ownerTenantId)) return this.release(identity, found, input);
    if (!(await seesPack(this.db, identity, found))) throw packNotFound({ name: input.name });
    return this.installForTenant(identity, found, input);
  }

  /** The owner's install: makes a published version the pack's active one. */
  private async release(identity: Identity, found: PackWithActive, input: { name: string; version: string }) {
    requireDeveloperMode(identity, 'release versions of packs');
    const { pack } = found;
    const versions = new VersionRepository(this.db);
    const wanted = input.version === 'latest' ? latestOf((await versions.listOf(pack.id)).map((v) => v.version)) : input.version;
    const target = wanted === undefined ? undefined : await versions.find(pack.id, wanted);
    if (!target) throw noSuchVersion(input.name, input.version);

    const names = await new CommandRepository(this.db).namesOf(target.id);
    const previous = found.active?.version ?? null;
    const owned = { tenantId: pack.ownerTenantId, packId: pack.id, pinnedVersionId: null, installedBy: identity.userId };
    if (found.active?.id === target.id) {
      await new InstallationRepository(this.db).ensure(owned);
    } else {
      try {
        await this.events.transaction(async (tx, out) => {
          const clashes = await new CommandRepository(tx).activeClashes(pack.namespace, names, pack.id);
          if (clashes.length > 0) throw commandNameTaken(pack.namespace, clashes);
          await new CommandRepository(tx).activate(pack.id, target.id);
          await new PackRepository(tx).setActiveVersion(pack.id, target.id, identity.userId);
          await new InstallationRepository(tx).upsert(owned);
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
            schedules: proposedSchedulesOf(target),
          });
        });
      } catch (err) {
        // Another pack of the namespace took one of the names between the check and the write.
        if (violatedUniqueConstraint(err) === 'commands_active_name_idx') throw commandNameTaken(pack.namespace, names.map((command) => ({ command, pack: '(another pack)' })));
        throw err;
      }
    }

    const message = previous === null ? `Installed ${input.name} ${target.version}` : previous === target.version ? `${input.name} ${target.version} is already installed` : `Installed ${input.name} ${target.version} (was ${previous})`;
    return { pack: { id: pack.id, namespace: pack.namespace, name: pack.name, version: target.version, commands: names, pinned: false }, message };
  }

  /**
   * Anybody else's install, into the caller's own tenant: `latest` follows the pack's active
   * version; a version number pins the installation to that published version, which the
   * caller must be able to reach by its own visibility.
   */
  private async installForTenant(identity: Identity, found: PackWithActive, input: { name: string; version: string }) {
    const { pack } = found;
    const active = found.active!; // a pack the caller sees has an active version
    const versions = new VersionRepository(this.db);
    let pinned: PackVersionRow | null = null;
    if (input.version !== 'latest') {
      pinned = (await versions.find(pack.id, input.version)) ?? null;
      if (!pinned || !(await mayReach(this.db, identity, pack, pinned.visibility))) throw noSuchVersion(input.name, input.version);
    }
    const runs = pinned ?? active;

    const before = await new InstallationRepository(this.db).find(identity.tenantId, pack.id);
    const previous = before ? ((before.pinnedVersionId && (await versions.findById(before.pinnedVersionId))?.version) ?? active.version) : null;
    const unchanged = before !== undefined && before.pinnedVersionId === (pinned?.id ?? null);
    if (!unchanged) {
      await this.events.transaction(async (tx, out) => {
        await new InstallationRepository(tx).upsert({ tenantId: identity.tenantId, packId: pack.id, pinnedVersionId: pinned?.id ?? null, installedBy: identity.userId });
        out.publish('pack.installation.changed', {
          pack_id: pack.id,
          tenant_id: identity.tenantId,
          owner_tenant_id: pack.ownerTenantId,
          user_id: identity.userId,
          namespace: pack.namespace,
          name: pack.name,
          version: runs.version,
          version_id: runs.id,
          pinned: pinned !== null,
          previous_version: previous,
          schedules: proposedSchedulesOf(runs),
        });
      });
    }

    const how = pinned ? 'pinned' : 'following the latest release';
    const message = unchanged ? `${input.name} ${runs.version} is already installed (${how})` : previous === null ? `Installed ${input.name} ${runs.version} (${how})` : `Installed ${input.name} ${runs.version} (${how}; was ${previous})`;
    const names = await new CommandRepository(this.db).namesOf(runs.id);
    return { pack: { id: pack.id, namespace: pack.namespace, name: pack.name, version: runs.version, commands: names, pinned: pinned !== null }, message };
  }

  /** The installations of every tenant the caller belongs to. */
  async list(identity: Identity): Promise<InstalledPackList> {
    const rows = await new InstallationRepository(this.db).listOf(tenantIdsOf(identity));
    return {
      packs: rows.map((row) => ({
        id: row.pack.id,
        name: row.pack.name,
        namespace: row.pack.namespace,
        version: row.version,
        visibility: row.visibility,
        commands: row.commands,
        installed_at: row.installation.installedAt.toISOString(),
        status: row.available ? ('active' as const) : ('unavailable' as const),
        pinned: row.pinned,
      })),
    };
  }

  /**
   * `DELETE /packs/{pack_id}`: for the owner's developers, the spec's uninstall (the pack with
   * every version, command, grant, installation and package file); for anybody else, their
   * tenant's installation, the pack staying published.
   */
  async uninstall(identity: Identity, packId: string) {
    // A malformed id names no pack: 404, as for an unknown one.
    const found = PackIdParam.safeParse(packId).success ? await new PackRepository(this.db).findById(packId) : undefined;
    if (!found) throw packNotFound({ pack_id: packId });
    if (belongsTo(identity, found.pack.ownerTenantId)) return this.removePack(identity, found);
    const { pack } = found;
    const removed = await this.events.transaction(async (tx, out) => {
      if (!(await new InstallationRepository(tx).delete(identity.tenantId, pack.id))) return false;
      out.publish('pack.installation.removed', { pack_id: pack.id, tenant_id: identity.tenantId, owner_tenant_id: pack.ownerTenantId, user_id: identity.userId, namespace: pack.namespace, name: pack.name });
      return true;
    });
    if (removed) return { message: `Removed ${refOf(pack)} from your installed packs; the pack itself stays published` };
    if (!(await seesPack(this.db, identity, found))) throw packNotFound({ pack_id: packId });
    throw notPackOwner(found, { pack_id: packId }, 'uninstall');
  }

  /** Removes the pack with every version, command, grant and installation, and its package files. */
  private async removePack(identity: Identity, { pack, active }: PackWithActive) {
    requireDeveloperMode(identity, 'uninstall packs');
    const versions = await new VersionRepository(this.db).listOf(pack.id);
    const names = active ? await new CommandRepository(this.db).namesOf(active.id) : [];
    await this.events.transaction(async (tx, out) => {
      if (!(await new PackRepository(tx).delete(pack.id))) throw packNotFound({ pack_id: pack.id });
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
    return { message: `Uninstalled ${refOf(pack)}` };
  }
}
