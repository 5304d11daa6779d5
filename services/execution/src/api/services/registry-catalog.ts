import type { Bus } from '@svc/bus';
import { tenantIdsOf, type Identity } from '@svc/auth';
import { RESOLVE_COMMAND_RPC, type ResolvedCommand } from '@svc/contracts';
import { AppError, ServiceUnavailableError } from '@svc/core';
import type { CommandCatalog } from '../../core/command-catalog.js';
import { UNQUEUED_RETRY_AFTER_SECONDS } from './task.service.js';

/** How long a resolved command is reused; visibility changes reach running calls within this. */
export const RESOLVE_CACHE_MS = 2000;
const RESOLVE_TIMEOUT_MS = 3000;

/**
 * Asks the registry, which owns visibility, whether the caller may run a command and what it
 * is. Answers are reused for a moment: every call of a hot command would otherwise cost a
 * round trip. Calls that find no answer while one is being asked for share that question, so
 * that the moment's end costs the registry one lookup, not one per call in flight. Installs and
 * uninstalls (a tenant's installation too: it may pin a version) clear a namespace's answers,
 * found or not, as soon as their event arrives (`forgetNamespace`): a new version or a new pack
 * is run from the next call, not after the moment is over, and an answer asked for before the
 * event is used by the calls that asked but not kept.
 */
export class RegistryCatalog implements CommandCatalog {
  private readonly recent = new Map<string, { command: ResolvedCommand | null; until: number }>();
  /** Questions in flight; `forgetNamespace` drops those of its namespace, so that their answers are not kept. */
  private readonly asking = new Map<string, Promise<ResolvedCommand | null>>();

  constructor(private readonly bus: Bus) {}

  async resolve(identity: Identity, path: { namespace: string; name: string; pack?: string }): Promise<ResolvedCommand | null> {
    const tenantIds = tenantIdsOf(identity);
    // The caller's own tenant is among its tenants: its pinned versions are part of the answer.
    const key = `${path.namespace}/${path.pack ?? ''}/${path.name}|${tenantIds.join(',')}`;
    const hit = this.recent.get(key);
    if (hit && hit.until > Date.now()) return hit.command;
    const asked = this.asking.get(key);
    if (asked) return asked;
    const answer: Promise<ResolvedCommand | null> = this.ask(identity, path, tenantIds)
      .then((command) => {
        // Still the question in flight: no change of its namespace was heard of while it was asked.
        if (this.asking.get(key) === answer) {
          if (this.recent.size > 10_000) this.recent.clear();
          this.recent.set(key, { command, until: Date.now() + RESOLVE_CACHE_MS });
        }
        return command;
      })
      .finally(() => {
        if (this.asking.get(key) === answer) this.asking.delete(key);
      });
    this.asking.set(key, answer);
    return answer;
  }

  forgetNamespace(namespace: string): void {
    const prefix = `${namespace}/`;
    for (const key of this.recent.keys()) if (key.startsWith(prefix)) this.recent.delete(key);
    for (const key of this.asking.keys()) if (key.startsWith(prefix)) this.asking.delete(key);
  }

  private async ask(identity: Identity, path: { namespace: string; name: string; pack?: string }, tenantIds: string[]): Promise<ResolvedCommand | null> {
    try {
      return await this.bus.request(RESOLVE_COMMAND_RPC, { ...path, tenant_ids: tenantIds, tenant_id: identity.tenantId }, { timeoutMs: RESOLVE_TIMEOUT_MS });
    } catch (err) {
      // The registry out of reach (the broker away, no answer in time) is the same answer as a run that cannot be queued: nothing ran, try again shortly.
      if (!(err instanceof AppError) || err.status >= 500) throw new ServiceUnavailableError('The command could not be looked up; try again shortly', { retry_after: UNQUEUED_RETRY_AFTER_SECONDS }, { cause: err });
      if (err.code !== 'NOT_FOUND') throw err;
      return null;
    }
  }
}
