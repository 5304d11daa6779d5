import type { Bus, Subscription } from '@svc/bus';
import { SSH_EXEC_RPC } from '@svc/contracts';
import type { TargetService } from '../services/target.service.js';

/**
 * `ctx.ssh.exec` for the execution worker, under the tenant the run is for (the worker has
 * already checked the pack's `ssh_targets.allowed`). Credentials never leave this service.
 */
export function respondToExecRequests(bus: Bus, targets: TargetService): Promise<Subscription> {
  return bus.respond(SSH_EXEC_RPC, ({ tenantId, target, command, timeoutMs }) => targets.exec(tenantId, target, command, timeoutMs));
}
