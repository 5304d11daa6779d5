import type { FileRow } from '../repositories/dashboard.repository.js';

/** Versions whose file lists are kept: at most 500 rows each (Part 2, "Limits"). */
const KEPT_VERSIONS = 256;

/**
 * The file lists of recently served versions, keyed by dashboard id and version, least recently
 * used dropped first. A version's files never change once its row is committed, and a deleted
 * dashboard's id is never used again, so an entry is never stale: a deleted dashboard is refused
 * by the visibility check that runs on every request before its entry is read. Only versions
 * that exist are kept, so an upload in progress is found as soon as it commits.
 */
export class InventoryCache {
  private readonly entries = new Map<string, ReadonlyMap<string, FileRow>>();

  constructor(private readonly capacity = KEPT_VERSIONS) {}

  /** The version's files by path, loading them with `load` when they are not kept. */
  async get(dashboardId: string, version: string, load: () => Promise<FileRow[]>): Promise<ReadonlyMap<string, FileRow> | undefined> {
    const key = `${dashboardId}@${version}`;
    const kept = this.entries.get(key);
    if (kept) {
      // Map keeps insertion order: moving the entry to the end makes the first one the least recently used.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const rows = await load();
    if (rows.length === 0) return undefined;
    const inventory = new Map(rows.map((row) => [row.path, row]));
    this.entries.set(key, inventory);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return inventory;
  }
}
