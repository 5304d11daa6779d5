import { SECRETS_PER_PACK_MAX, type Secret } from '@svc/contracts';
import { ValidationError, type Logger } from '@svc/core';
import { Sealer } from '@svc/auth';
import type { Db } from '@svc/db';
import { SecretRepository, type SecretRow, type SecretScope } from '../repositories/secret.repository.js';
import type { Clock } from './storage.service.js';

const view = (row: SecretRow): Secret => ({ name: row.name, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() });
const contextOf = (scope: SecretScope, name: string) => `${scope.tenantId}/${scope.namespace}/${scope.pack}/${name}`;

/**
 * Pack secrets per tenant: written and listed by their owners over HTTP (values never read back),
 * opened only for the execution worker (`resolve`). Values are never logged.
 */
export class SecretService {
  readonly #sealer: Sealer;

  constructor(
    private readonly db: Db,
    secretsKey: string,
    private readonly log: Logger,
    private readonly clock: Clock = () => new Date(),
  ) {
    // One key, derived from the configured secret, for as long as there is no rotation of it.
    this.#sealer = new Sealer({ purpose: 'pack-secrets/v1', current: secretsKey });
  }

  async list(scope: SecretScope): Promise<Secret[]> {
    return (await new SecretRepository(this.db).list(scope)).map(view);
  }

  /** Creates or replaces a secret; at most SECRETS_PER_PACK_MAX per pack and tenant. */
  async set(scope: SecretScope, name: string, value: string): Promise<Secret & { created: boolean }> {
    return this.db.transaction(async (tx) => {
      const secrets = new SecretRepository(tx);
      const existing = await secrets.find(scope, name);
      if (!existing && (await secrets.count(scope)) >= SECRETS_PER_PACK_MAX) {
        throw new ValidationError(`A pack keeps at most ${SECRETS_PER_PACK_MAX} secrets per tenant; remove one first`, { field: 'name', reason: 'secrets_limit', limit: SECRETS_PER_PACK_MAX });
      }
      const row = await secrets.write(scope, name, this.#sealer.seal(value, contextOf(scope, name)).sealed, this.clock());
      return { ...view(row), created: !existing };
    });
  }

  async delete(scope: SecretScope, name: string): Promise<boolean> {
    return new SecretRepository(this.db).delete(scope, name);
  }

  /** Every secret of the pack for the tenant, opened; one that does not open is left out and logged by name. */
  async resolve(scope: SecretScope): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const row of await new SecretRepository(this.db).list(scope)) {
      try {
        values[row.name] = this.#sealer.open(row.sealed, contextOf(scope, row.name));
      } catch {
        this.log.error('pack secret does not open (another key?)', { namespace: scope.namespace, pack: scope.pack, name: row.name });
      }
    }
    return values;
  }
}
