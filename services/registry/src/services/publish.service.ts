import type { CommandNamesCheck } from '@svc/contracts';
import { createHash, randomUUID } from 'node:crypto';
import { machine } from 'node:os';
import { requireDeveloperMode, tenantOfNamespace, type Identity } from '@svc/auth';
import type { EventOutbox } from '@svc/bus';
import { PermissionError, ValidationError, type Logger } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { inspectPackage, isZip, PackFormatError, pythonSatisfies, unfitVendoredWheels, verifyPackageSignature, type PackManifest } from '@svc/pack-sdk';
import type { BlobStore } from '@svc/blobs';
import { CommandRepository } from '../repositories/command.repository.js';
import { PackRepository } from '../repositories/pack.repository.js';
import { VersionRepository } from '../repositories/version.repository.js';
import { commandNameTaken, packFormatError, versionExists } from './errors.js';
import type { FleetPython } from './fleet-python.js';

/** Stands for a pack not published yet: no command belongs to it, so every clash counts. */
const NO_PACK_ID = '00000000-0000-0000-0000-000000000000';

/** A detached Ed25519 signature of the package, sent beside it (`svc pack build --sign`). */
export interface SignatureFields {
  public_key: string;
  signature: string;
}

/** Runs a check of the pack format, its PackFormatError answered as the spec's error body. */
async function checked<T>(check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof PackFormatError) throw packFormatError(err);
    throw err;
  }
}

export interface PublishServiceOptions {
  db: Db;
  blobs: BlobStore;
  events: EventOutbox;
  log: Logger;
  /** The Python the fleet runs Python packs on. */
  python: FleetPython;
}

export class PublishService {
  private readonly db: Db;
  private readonly blobs: BlobStore;
  private readonly events: EventOutbox;
  private readonly log: Logger;
  private readonly python: FleetPython;

  constructor(options: PublishServiceOptions) {
    ({ db: this.db, blobs: this.blobs, events: this.events, log: this.log, python: this.python } = options);
  }

  /**
   * A Python pack is refused when the fleet's interpreter can never satisfy its `python:` range,
   * or it vendors a wheel of native code built for another Python or machine.
   */
  private async requireRunnable(manifest: PackManifest, files: Map<string, Buffer>): Promise<void> {
    if (manifest.runtime !== 'python') return;
    const version = await this.python.version();
    if (version === null) {
      throw ValidationError.coded('MANIFEST_INVALID', 'pack.yaml: runtime: this platform has no Python interpreter, so Python packs cannot run on it', { field: 'runtime', runtime: 'python' });
    }
    if (manifest.python !== null && !pythonSatisfies(manifest.python, version)) {
      throw ValidationError.coded('MANIFEST_INVALID', `pack.yaml: python: "${manifest.python}" can never be met here: this platform runs Python packs on Python ${version}`, {
        field: 'python',
        python: manifest.python,
        platform_python: version,
      });
    }
    const unfit = unfitVendoredWheels(files, { version, machine: machine() });
    if (unfit.length > 0) {
      throw ValidationError.coded('PACKAGE_INVALID', `${unfit[0]!.message}${unfit.length > 1 ? ` (and ${unfit.length - 1} more)` : ''}`, { field: 'vendor', wheels: unfit });
    }
  }

  /**
   * Whether `commands` are free for `pack` in `namespace`: a name another active pack of the
   * namespace uses would stop the publication (`COMMAND_NAME_TAKEN`). Only a member of the
   * namespace's tenant may ask, as only they may publish there and see its packs' names.
   */
  async checkCommandNames(identity: Identity, body: { namespace: string; pack: string; commands: string[] }): Promise<CommandNamesCheck> {
    if (!tenantOfNamespace(identity, body.namespace)) {
      throw new PermissionError(`Namespace "${body.namespace}" is neither your personal namespace nor one of your organizations`, { reason: 'namespace_not_owned', namespace: body.namespace });
    }
    const names = [...new Set(body.commands)];
    const existing = await new PackRepository(this.db).findByName(body.namespace, body.pack);
    const clashes = await new CommandRepository(this.db).activeClashes(body.namespace, names, existing?.pack.id ?? NO_PACK_ID);
    const takenBy = new Map(clashes.map((clash) => [clash.command, `@${body.namespace}/${clash.pack}`]));
    return {
      namespace: body.namespace,
      pack: body.pack,
      commands: names.map((name) => ({ name, available: !takenBy.has(name), taken_by: takenBy.get(name) ?? null })),
    };
  }

  /**
   * Checks a package and stores it as a new, immutable version of its pack. The version is
   * not active until it is installed. The package file is written before the rows that point
   * at it, and removed again when they cannot be written.
   */
  async publish(identity: Identity, tarball: Buffer, signature?: SignatureFields) {
    requireDeveloperMode(identity, 'publish packs');
    const { manifest, files } = await checked(() => inspectPackage(tarball));
    await this.requireRunnable(manifest, files);
    // Checked after the package, so a broken package is reported as such first.
    const keyFingerprint = signature ? await checked(() => verifyPackageSignature(tarball, signature)) : null;
    const { namespace, name, version, visibility, description } = manifest.pack;
    const ref = `@${namespace}/${name}`;
    const ownerTenantId = tenantOfNamespace(identity, namespace);
    if (!ownerTenantId) {
      throw new PermissionError(`You cannot publish to namespace "${namespace}": it is neither your personal namespace nor one of your organizations`, {
        reason: 'namespace_not_owned',
        namespace,
      });
    }

    const versionId = randomUUID();
    const blobKey = `packs/${namespace}/${name}/${versionId}${isZip(tarball) ? '.whl' : '.tar.gz'}`;
    const sha256 = createHash('sha256').update(tarball).digest('hex');
    await this.blobs.put(blobKey, tarball);

    const commandNames = manifest.commands.map((c) => c.name);
    let packId: string;
    try {
      packId = await this.events.transaction(async (tx, out) => {
        const pack = await new PackRepository(tx).findOrCreate(namespace, name, ownerTenantId);
        if (pack.ownerTenantId !== ownerTenantId) throw new PermissionError(`${ref} belongs to another tenant`, { reason: 'namespace_not_owned', namespace });
        const versions = new VersionRepository(tx);
        if (await versions.find(pack.id, version)) throw versionExists(ref, version);
        const commands = new CommandRepository(tx);
        const clashes = await commands.activeClashes(namespace, manifest.commands.map((c) => c.name), pack.id);
        if (clashes.length > 0) throw commandNameTaken(namespace, clashes);
        await versions.insert({
          id: versionId,
          packId: pack.id,
          version,
          description,
          visibility,
          manifest: manifest as unknown as Record<string, unknown>,
          blobKey,
          sizeBytes: tarball.length,
          sha256,
          signaturePublicKey: signature?.public_key ?? null,
          signature: signature?.signature ?? null,
          publishedBy: identity.userId,
        });
        await commands.insertMany(
          manifest.commands.map((command) => ({
            packId: pack.id,
            packVersionId: versionId,
            namespace,
            name: command.name,
            description: command.description,
            entry: command.entry,
            inputSchema: command.input_schema,
            outputSchema: command.output_schema,
            annotations: command.annotations,
            ui: command.ui,
            timeoutSeconds: command.timeout,
            retries: command.retries,
            queue: command.queue,
            tags: command.tags,
            examples: command.examples,
          })),
        );
        out.publish('pack.published', { pack_id: pack.id, version_id: versionId, tenant_id: ownerTenantId, user_id: identity.userId, namespace, name, version, visibility, commands: commandNames });
        return pack.id;
      });
    } catch (err) {
      await this.blobs.delete(blobKey).catch((e: Error) => this.log.error('orphaned package file not removed', { blob_key: blobKey, error: e.message }));
      // Two uploads of the same version at once: the second loses on the unique constraint.
      if (violatedUniqueConstraint(err) === 'pack_versions_pack_version_unique') throw versionExists(ref, version);
      throw err;
    }

    return {
      pack: {
        id: packId,
        namespace,
        name,
        version,
        version_id: versionId,
        visibility,
        description,
        commands: commandNames,
        size_bytes: tarball.length,
        sha256,
        signature: keyFingerprint ? { algorithm: 'ed25519', key_fingerprint: keyFingerprint } : null,
      },
      message: `Published ${ref} ${version}; install it to make its commands available`,
    };
  }
}
