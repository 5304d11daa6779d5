import type { z } from 'zod';
import type { Identity } from '@svc/auth';
import type { GrantBody } from '@svc/contracts';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { GrantRepository } from '../repositories/grant.repository.js';
import { PackRepository } from '../repositories/pack.repository.js';
import { requireOwnedPack } from './ownership.js';

type Grant = z.infer<typeof GrantBody>;

export class GrantService {
  constructor(private readonly db: Db) {}

  private async ownedPack(identity: Identity, body: Grant) {
    const found = await new PackRepository(this.db).findByName(body.pack_namespace, body.pack_name);
    const details = { pack_namespace: body.pack_namespace, pack_name: body.pack_name };
    return (await requireOwnedPack(this.db, identity, found, details, 'manage grants of')).pack;
  }

  async grant(identity: Identity, body: Grant) {
    const pack = await this.ownedPack(identity, body);
    const row = await new GrantRepository(this.db).grant(pack.id, body.grantee_tenant_id, identity.userId);
    return { granted: true as const, timestamp: row.createdAt.toISOString() };
  }

  async revoke(identity: Identity, body: Grant) {
    const pack = await this.ownedPack(identity, body);
    if (!(await new GrantRepository(this.db).revoke(pack.id, body.grantee_tenant_id))) {
      throw new NotFoundError('Grant not found', { pack_namespace: body.pack_namespace, pack_name: body.pack_name, grantee_tenant_id: body.grantee_tenant_id });
    }
    return { revoked: true as const, timestamp: new Date().toISOString() };
  }
}
