import type { Bus, Subscription } from '@svc/bus';
import { FETCH_PACKAGE_RPC } from '@svc/contracts';
import type { PackageService } from '../services/package.service.js';

/** Hands a pack version's package to the worker that runs it. */
export function respondToPackageRequests(bus: Bus, packages: PackageService): Promise<Subscription> {
  return bus.respond(FETCH_PACKAGE_RPC, async ({ version_id }) => packages.fetch(version_id));
}
