import type { Bus, Subscription } from '@svc/bus';
import { FETCH_PACKAGE_RPC, FetchPackageRequest } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { PackageService } from '../services/package.service.js';

/** Hands a pack version's package to the worker that runs it. */
export function respondToPackageRequests(bus: Bus, packages: PackageService): Promise<Subscription> {
  return bus.respond(FETCH_PACKAGE_RPC, async (payload) => packages.fetch(parseInput(FetchPackageRequest, payload, `${FETCH_PACKAGE_RPC} request`).version_id));
}
