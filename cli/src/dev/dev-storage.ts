import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

interface Entry {
  value: unknown;
  created_at: string;
  expires_at: string | null;
}

type Args = { key?: unknown; value?: unknown; ttl?: unknown; prefix?: unknown; limit?: unknown };

/** Largest key list answered at once, as the storage service's default. */
const DEFAULT_LIST_LIMIT = 100;

function requireKey(key: unknown): string {
  if (typeof key !== 'string' || key === '') throw new TypeError('storage key must be a non-empty string');
  return key;
}

/**
 * `ctx.storage` of `svc pack dev` and `svc pack exec`: the storage service's answers (entries,
 * `created`, `expires_at`, key lists) kept in memory, or in a JSON file with `--persist`.
 */
export class DevStorage {
  readonly #entries = new Map<string, Entry>();
  readonly #file: string | undefined;

  private constructor(file: string | undefined) {
    this.#file = file;
  }

  /** In memory; with `file`, loaded from it and written back after each change. */
  static async open(file?: string): Promise<DevStorage> {
    const storage = new DevStorage(file);
    if (!file) return storage;
    try {
      const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, Entry>;
      for (const [key, entry] of Object.entries(saved)) storage.#entries.set(key, entry);
    } catch {
      // Nothing saved yet, or unreadable: start empty.
    }
    return storage;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry?.expires_at && Date.parse(entry.expires_at) <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async #save(): Promise<void> {
    if (!this.#file) return;
    await mkdir(dirname(this.#file), { recursive: true });
    await writeFile(`${this.#file}.tmp`, JSON.stringify(Object.fromEntries(this.#entries), null, 2));
    await rename(`${this.#file}.tmp`, this.#file);
  }

  get(args: Args) {
    const key = requireKey(args.key);
    const entry = this.#live(key);
    return entry ? { key, ...entry } : null;
  }

  async put(args: Args) {
    const key = requireKey(args.key);
    const ttl = typeof args.ttl === 'number' && args.ttl > 0 ? args.ttl : undefined;
    const existing = this.#live(key);
    const now = new Date();
    const expiresAt = ttl ? new Date(now.getTime() + ttl * 1000).toISOString() : null;
    this.#entries.set(key, { value: args.value ?? null, created_at: existing?.created_at ?? now.toISOString(), expires_at: expiresAt });
    await this.#save();
    return { key, created: !existing, expires_at: expiresAt };
  }

  async delete(args: Args) {
    const key = requireKey(args.key);
    const existed = this.#live(key) !== undefined;
    this.#entries.delete(key);
    if (existed) await this.#save();
    return { deleted: existed };
  }

  list(args: Args) {
    const prefix = typeof args.prefix === 'string' ? args.prefix : '';
    const limit = typeof args.limit === 'number' && args.limit > 0 ? args.limit : DEFAULT_LIST_LIMIT;
    const keys = [...this.#entries.keys()].filter((key) => key.startsWith(prefix) && this.#live(key)).sort();
    return { keys: keys.slice(0, limit), total: keys.length };
  }
}
