import { randomBytes } from 'node:crypto';
import type { Identity } from '@svc/auth';
import { API_KEYS_PER_USER } from '@svc/contracts';
import { ConflictError, NotFoundError, PermissionError } from '@svc/core';
import type { Db } from '@svc/db';
import { ApiKeyRepository, type ApiKeyRow } from '../repositories/api-key.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import type { PrincipalService } from './principal.service.js';
import { digest } from './tokens.js';

/** `sk-svc-` and the first 8 hex digits: enough to recognise a key, useless to use it. */
const PREFIX_LENGTH = 'sk-svc-'.length + 8;

function view(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.keyPrefix,
    scopes: row.scopes,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Keys are managed with an access token only: a key cannot mint, list or revoke keys. */
function requireJwt(caller: Identity): void {
  if (caller.authKind !== 'jwt') throw new PermissionError('API keys cannot manage API keys; use an access token');
}

export class ApiKeyService {
  constructor(
    private readonly db: Db,
    private readonly principals: PrincipalService,
  ) {}

  async create(caller: Identity, input: { name: string; scopes: string[] }) {
    requireJwt(caller);
    // 256 bits of entropy; only the digest is stored.
    const key = `sk-svc-${randomBytes(32).toString('hex')}`;
    const row = await this.db.transaction(async (tx) => {
      // One request of a user at a time counts and adds, so concurrent requests cannot pass the limit together.
      await new UserRepository(tx).lock(caller.userId);
      const keys = new ApiKeyRepository(tx);
      if ((await keys.liveHashesOf(caller.userId)).length >= API_KEYS_PER_USER) {
        throw ConflictError.coded('API_KEY_LIMIT', `At most ${API_KEYS_PER_USER} live API keys per user; revoke one first`);
      }
      return keys.create({ userId: caller.userId, name: input.name, keyPrefix: key.slice(0, PREFIX_LENGTH), keyHash: digest(key), scopes: input.scopes });
    });
    return { id: row.id, name: row.name, key, key_prefix: row.keyPrefix, scopes: row.scopes, created_at: row.createdAt.toISOString() };
  }

  async list(caller: Identity) {
    requireJwt(caller);
    return (await new ApiKeyRepository(this.db).listOf(caller.userId)).map(view);
  }

  /** Soft delete: the row stays with `revoked_at`; the key stops working on every gateway at once. */
  async revoke(caller: Identity, id: string) {
    requireJwt(caller);
    const keys = new ApiKeyRepository(this.db);
    const found = /^[0-9a-f-]{36}$/i.test(id) ? await keys.findOf(caller.userId, id) : undefined;
    if (!found) throw new NotFoundError('API key not found', { key_id: id });
    const revoked = (await keys.revoke(found.id))!;
    await this.principals.forgetApiKeys([found.keyHash]);
    return { ...view(revoked), message: 'API key revoked' };
  }

  async recordUse(uses: { id: string; at: string }[]): Promise<void> {
    await new ApiKeyRepository(this.db).touch(uses.map((u) => ({ id: u.id, at: new Date(u.at) })));
  }
}
