import { z } from 'zod';
import { Uuid } from './accounts.js';
import { Timestamp } from './responses.js';

/** Longest storage key, in characters. */
export const STORAGE_KEY_MAX = 256;
/** Characters a key may use: letters, digits, `.`, `_`, `-` and the `:` namespace separator. */
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9._:-]+$/;
/** Largest value: `data` serialised as JSON, in UTF-8 bytes. */
export const STORAGE_VALUE_MAX_BYTES = 256 * 1024;
/** Longest `ttl` (one year); an entry written without `ttl` never expires. */
export const STORAGE_TTL_MAX_SECONDS = 31_536_000;
export const STORAGE_LIST_LIMIT_DEFAULT = 100;
export const STORAGE_LIST_LIMIT_MAX = 1000;

const keyCharacters = 'must use only letters, digits, ".", "_", "-" and ":"';

export const StorageKey = z
  .string()
  .min(1, 'must not be empty')
  .max(STORAGE_KEY_MAX, `must be at most ${STORAGE_KEY_MAX} characters`)
  .regex(STORAGE_KEY_PATTERN, keyCharacters)
  // URL clients rewrite "." and ".." path segments, so such keys could never be read back.
  .refine((key) => key !== '.' && key !== '..', 'must not be "." or ".."');

/** The byte size a value is measured and limited by. */
export function storageValueBytes(data: unknown): number {
  return Buffer.byteLength(JSON.stringify(data));
}

export const StorageValue = z
  .record(z.string(), z.unknown(), 'must be a JSON object')
  .refine((data) => storageValueBytes(data) <= STORAGE_VALUE_MAX_BYTES, `must be at most ${STORAGE_VALUE_MAX_BYTES} bytes as JSON`);

/** Seconds until the entry expires; absent or null: it never does. */
export const StorageTtl = z
  .number()
  .int('must be an integer number of seconds')
  .min(1, 'must be at least 1 second')
  .max(STORAGE_TTL_MAX_SECONDS, `must be at most ${STORAGE_TTL_MAX_SECONDS} seconds`)
  .nullish();

const StoragePrefix = z
  .string()
  .max(STORAGE_KEY_MAX, `must be at most ${STORAGE_KEY_MAX} characters`)
  .regex(/^[A-Za-z0-9._:-]*$/, keyCharacters);

const StorageLimit = z.coerce
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(STORAGE_LIST_LIMIT_MAX, `must be at most ${STORAGE_LIST_LIMIT_MAX}`)
  .default(STORAGE_LIST_LIMIT_DEFAULT);

/** `PUT /api/v1/storage/{key}`. */
export const StoragePutBody = z.strictObject({ data: StorageValue, ttl: StorageTtl });

/** `GET /api/v1/storage`: keys starting with `prefix`, in byte order, after the key `after` (paging). */
export const StorageListQuery = z.strictObject({ prefix: StoragePrefix.default(''), limit: StorageLimit, after: StorageKey.optional() });

/**
 * Storage over the bus, for services acting for a tenant (the execution service's
 * `ctx.storage`). Same rules and limits as the HTTP endpoints.
 */
export const STORAGE_GET_RPC = 'storage.get';
export const STORAGE_PUT_RPC = 'storage.put';
export const STORAGE_DELETE_RPC = 'storage.delete';
export const STORAGE_LIST_RPC = 'storage.list';

const TenantId = Uuid;

/** `storage.get` → `{entry: StorageEntry | null}`. */
export const StorageGetRequest = z.strictObject({ tenantId: TenantId, key: StorageKey });
/** `storage.put` → `{key, created, expires_at}`. */
export const StoragePutRequest = StorageGetRequest.extend({ data: StorageValue, ttl: StorageTtl });
/** `storage.delete` → `{deleted: boolean}` (false when there was no such key). */
export const StorageDeleteRequest = StorageGetRequest;
/** `storage.list` → `{keys, total}`. */
export const StorageListRequest = StorageListQuery.extend({ tenantId: TenantId });

/** What a read answers (Part 1 "Storage entry"); `expires_at` is null for an entry without ttl. */
export const StorageEntry = z
  .object({
    key: z.string(),
    value: z.record(z.string(), z.unknown()).meta({ description: 'The `data` written.' }),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'StorageEntry' });
export type StorageEntry = z.infer<typeof StorageEntry>;

export const StorageWriteResult = z
  .object({ key: z.string(), created: z.boolean().meta({ description: 'False when a live entry was replaced.' }), expires_at: Timestamp.nullable() })
  .meta({ id: 'StorageWrite' });
export type StorageWriteResult = z.infer<typeof StorageWriteResult>;

export const StorageListResult = z.object({
  keys: z.array(z.string()),
  /** Every live key matching the prefix, not only those returned. */
  total: z.number().int().min(0),
});
export type StorageListResult = z.infer<typeof StorageListResult>;

/** `storage.get`'s answer: null for a key the tenant has no live entry under. */
export const StorageGetReply = z.object({ entry: StorageEntry.nullable() });
/** `storage.delete`'s answer: false when there was no such key. */
export const StorageDeleteReply = z.object({ deleted: z.boolean() });
