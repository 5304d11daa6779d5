import type { z } from 'zod';
import type { Identity } from '@svc/auth';
import type { Bus } from '@svc/bus';
import type { EventPayload, GrantBody } from '@svc/contracts';
import { NotFoundError, type Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { GrantRepository } from '../repositories/grant.repository.js';
import { PackRepository } from '../repositories/pack.repository.js';
import { requireOwnedPack } from './ownership.js';

type Grant = z.infer<typeof GrantBody>;

export class GrantService {
  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  /** After the change is committed: callers' cached answers about the pack end at once. */
  private async announce(identity: Identity, pack: { id: string; ownerTenantId: string; namespace: string; name: string }, granteeTenantId: string, granted: boolean) {
    const event: EventPayload<'pack.grant.changed'> = { pack_id: pack.id, tenant_id: pack.ownerTenantId, namespace: pack.namespace, name: pack.name, grantee_tenant_id: granteeTenantId, granted, user_id: identity.userId };
    await this.bus.publish('pack.grant.changed', event).catch((err: Error) => this.log.error('pack.grant.changed not published', { pack_id: pack.id, error: err.message }));
  }

  private async ownedPack(identity: Identity, body: Grant) {
    const found = await new PackRepository(this.db).findByName(body.pack_namespace, body.pack_name);
    const details = { pack_namespace: body.pack_namespace, pack_name: body.pack_name };
    return (await requireOwnedPack(this.db, identity, found, details, 'manage grants of')).pack;
  }

  async grant(identity: Identity, body: Grant) {
    const pack = await this.ownedPack(identity, body);
    const row = await new GrantRepository(this.db).grant(pack.id, body.grantee_tenant_id, identity.userId);
    await this.announce(identity, pack, body.grantee_tenant_id, true);
    return { granted: true as const, timestamp: row.createdAt.toISOString() };
  }

  async revoke(identity: Identity, body: Grant) {
    const pack = await this.ownedPack(identity, body);
    if (!(await new GrantRepository(this.db).revoke(pack.id, body.grantee_tenant_id))) {
      throw new NotFoundError('Grant not found', { pack_namespace: body.pack_namespace, pack_name: body.pack_name, grantee_tenant_id: body.grantee_tenant_id });
    }
    await this.announce(identity, pack, body.grantee_tenant_id, false);
    return { revoked: true as const, timestamp: new Date().toISOString() };
  }
}
