import { z } from 'zod';
import type { Bus } from '@svc/bus';
import { SSH_EXEC_DEFAULT_TIMEOUT_MS, SSH_EXEC_RPC, SSH_MESSAGES, SshExecRequest } from '@svc/contracts';
import { parseInput, PermissionError } from '@svc/core';
import type { Hooks } from '../runners/runner-process.js';
import type { PackManifests } from './pack-manifests.js';

/** What the ssh service may take besides the command's own time: connecting (10 s) and the bus. */
const EXEC_OVERHEAD_MS = 15_000;

const ExecArgs = z.object({
  target: SshExecRequest.shape.target,
  command: SshExecRequest.shape.command,
  timeoutMs: SshExecRequest.shape.timeoutMs.default(SSH_EXEC_DEFAULT_TIMEOUT_MS),
});

/**
 * `ctx.ssh.exec` for pack code: the targets its `pack.yaml` allows (`ssh_targets.allowed`,
 * names or `*`), of the tenant the run is for (`call.tenant`, never the pack owner's). The ssh
 * service runs the command; no credential reaches the worker or the runner.
 */
export function sshHooks(bus: Bus, manifests: PackManifests): Hooks {
  return {
    'ssh.exec': async (call, args) => {
      const { target, command, timeoutMs } = parseInput(ExecArgs, args, 'ctx.ssh.exec');
      const { allowed } = (await manifests.of(call.packDir)).ssh_targets;
      if (!allowed.includes('*') && !allowed.includes(target)) throw new PermissionError(SSH_MESSAGES.notAllowed, { target, reason: 'ssh_target_not_allowed' });
      return bus.request(SSH_EXEC_RPC, { tenantId: call.tenant, target, command, timeoutMs }, { timeoutMs: timeoutMs + EXEC_OVERHEAD_MS });
    },
  };
}
