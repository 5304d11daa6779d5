/** Files up to this size are kept whole; a larger one is streamed from the blob store each time. */
export const HOT_FILE_MAX_BYTES = 256 * 1024;
/** What the kept files may hold together, at most. */
const HOT_FILES_BYTES = 8 * 1024 * 1024;

/**
 * The bytes of recently served bundle files, keyed by blob key, least recently used dropped
 * first. A version's files never change once stored (their key names the version), so a kept
 * copy is never stale; who may read it is checked on every request before it is looked up.
 * Concurrent first reads of one file share one load. Serving from memory spares each request
 * opening, reading and closing the file and a stream to pipe it (BENCHMARKS.md, eleventh round).
 */
export class HotFiles {
  private readonly kept = new Map<string, Buffer>();
  private readonly loading = new Map<string, Promise<Buffer | undefined>>();
  private bytes = 0;

  constructor(private readonly capacityBytes = HOT_FILES_BYTES) {}

  /** The file's bytes, read with `load` when not kept; kept when `load` gives exactly `sizeBytes`. */
  async get(key: string, sizeBytes: number, load: () => Promise<Buffer | undefined>): Promise<Buffer | undefined> {
    const kept = this.kept.get(key);
    if (kept) {
      // Map keeps insertion order: moving the entry to the end makes the first one the least recently used.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load().finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    const bytes = await pending;
    // A stored file shorter or longer than its inventory says is served as it is, and not kept.
    if (bytes && bytes.length === sizeBytes && !this.kept.has(key)) this.keep(key, bytes);
    return bytes;
  }

  private keep(key: string, bytes: Buffer): void {
    this.kept.set(key, bytes);
    this.bytes += bytes.length;
    for (const [oldest, old] of this.kept) {
      if (this.bytes <= this.capacityBytes) break;
      this.kept.delete(oldest);
      this.bytes -= old.length;
    }
  }
}
