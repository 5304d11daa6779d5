import type { Readable } from 'node:stream';
import { isBlobKey, type BlobStore, type ByteRange } from '@svc/blobs';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { DashboardRepository, type DashboardWithActive, type FileRow } from '../repositories/dashboard.repository.js';
import { bundlePrefix } from './dashboard.service.js';
import { HOT_FILE_MAX_BYTES, HotFiles } from './hot-files.js';
import { InventoryCache } from './inventory-cache.js';

const fileNotFound = (details: Record<string, unknown>) => new NotFoundError('File not found in the bundle', { reason: 'file_not_found', ...details });

/** A bundle file ready to serve: its inventory row and how to read its bytes. */
export interface BundleFileHandle {
  file: FileRow;
  /** The bytes of `range` (all without): in memory for a small file, else a stream; undefined when the store has no such file. */
  read(range?: ByteRange): Promise<Buffer | Readable | undefined>;
}

/** Reads the files of a dashboard's versions; the caller has been let in already. */
export class BundleService {
  private readonly repo: DashboardRepository;
  /** Serving a file asks the database only who may see the dashboard; its version's files are kept. */
  private readonly inventories = new InventoryCache();
  private readonly hotFiles = new HotFiles();

  constructor(
    db: Db,
    private readonly blobs: BlobStore,
  ) {
    this.repo = new DashboardRepository(db);
  }

  /**
   * The file at `path` (`/`-separated, relative to the bundle's root) of `version`. A path that
   * would leave the bundle (`..`, `.`, empty parts, characters no bundle file has) is simply not
   * one of its files: 404.
   */
  async file({ dashboard }: DashboardWithActive, version: string, path: string): Promise<BundleFileHandle> {
    const details = { version, path };
    if (!isBlobKey(path)) throw fileNotFound(details);
    const inventory = await this.inventories.get(dashboard.id, version, () => this.repo.filesOf(dashboard.id, version));
    const file = inventory?.get(path);
    if (!file) throw fileNotFound(details);
    const key = `${bundlePrefix(dashboard.id, file.versionId)}/${path}`;
    if (file.sizeBytes > HOT_FILE_MAX_BYTES) return { file, read: (range) => this.blobs.open(key, range) };
    return {
      file,
      read: async (range) => {
        const bytes = await this.hotFiles.get(key, file.sizeBytes, () => this.blobs.get(key));
        return range ? bytes?.subarray(range.start, range.end + 1) : bytes;
      },
    };
  }
}
