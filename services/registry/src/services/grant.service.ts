import type { z } from 'zod';
import type { Identity } from '@svc/auth';
import type { EventOutbox, OutboxWriter } from '@svc/bus';
import type { GrantBody } from '@svc/contracts';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { GrantRepository } from '../repositories/grant.repository.js';
import { PackRepository } from '../repositories/pack.repository.js';
import { requireOwnedPack } from './ownership.js';

type Grant = z.infer<typeof GrantBody>;

export class GrantService {
  constructor(
    private readonly db: Db,
    private readonly events: EventOutbox,
  ) {}

  /** Published once the change is committed: callers' cached answers about the pack end at once. */
  private announce(out: OutboxWriter, identity: Identity, pack: { id: string; ownerTenantId: string; namespace: string; name: string }, granteeTenantId: string, granted: boolean) {
    out.publish('pack.grant.changed', { pack_id: pack.id, tenant_id: pack.ownerTenantId, namespace: pack.namespace, name: pack.name, grantee_tenant_id: granteeTenantId, granted, user_id: identity.userId });
  }

  private async ownedPack(identity: Identity, body: Grant) {
    const found = await new PackRepository(this.db).findByName(body.pack_namespace, body.pack_name);
    const details = { pack_namespace: body.pack_namespace, pack_name: body.pack_name };
    return (await requireOwnedPack(this.db, identity, found, details, 'manage grants of')).pack;
  }

  async grant(identity: Identity, body: Grant) {
    const pack = await this.ownedPack(identity, body);
    const row = await this.events.transaction(async (tx, out) => {
      this.announce(out, identity, pack, body.grantee_tenant_id, true);
      return new GrantRepository(tx).grant(pack.id, body.grantee_tenant_id, identity.userId);
    });
    return { granted: true as const, timestamp: row.createdAt.toISOString() };
  }

  async revoke(identity: Identity, body: Grant) {
    const pack = await this.ownedPack(identity, body);
    await this.events.transaction(async (tx, out) => {
      if (!(await new GrantRepository(tx).revoke(pack.id, body.grantee_tenant_id))) {
        throw new NotFoundError('Grant not found', { pack_namespace: body.pack_namespace, pack_name: body.pack_name, grantee_tenant_id: body.grantee_tenant_id });
      }
      this.announce(out, identity, pack, body.grantee_tenant_id, false);
    });
    return { revoked: true as const, timestamp: new Date().toISOString() };
  }
}
