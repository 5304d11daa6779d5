import type { FetchedPackage } from '@svc/contracts';
import { InternalError, NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import type { BlobStore } from '@svc/blobs';
import { VersionRepository } from '../repositories/version.repository.js';

export class PackageService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  /** The package file of a version, for a worker that is about to run one of its commands. */
  async fetch(versionId: string): Promise<FetchedPackage> {
    const version = await new VersionRepository(this.db).findById(versionId);
    if (!version) throw new NotFoundError('Pack version not found', { version_id: versionId });
    const bytes = await this.blobs.get(version.blobKey);
    if (!bytes) throw new InternalError('The package file of this version is missing', { version_id: versionId });
    return { version_id: version.id, sha256: version.sha256, size_bytes: version.sizeBytes, tarball_base64: bytes.toString('base64') };
  }
}
