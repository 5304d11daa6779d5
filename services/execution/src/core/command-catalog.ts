import type { Identity } from '@svc/auth';
import type { ResolvedCommand } from '@svc/contracts';

export type QueueName = ResolvedCommand['queue'];

/** Finds a command the caller may see; null when it does not exist or is not visible to them. */
export interface CommandCatalog {
  resolve(identity: Identity, path: { namespace: string; name: string; pack?: string }): Promise<ResolvedCommand | null>;
}

/** Gives the folder where a pack version's files are unpacked, fetching them when needed. */
export interface PackSource {
  dirFor(packId: string, versionId: string): Promise<string>;
  /** Removes every local copy of an uninstalled pack. */
  forget(packId: string): Promise<void>;
}
