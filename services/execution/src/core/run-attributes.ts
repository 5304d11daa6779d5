/**
 * What a run's spans (the API's `execution.run`, the worker's `worker.job`) say of it: the
 * command, its version and the tenant it runs for; never its input, output or secrets.
 */
export function runAttributes(run: { namespace: string; command: string; packVersion: string; tenantId: string }) {
  return { 'svc.command': `${run.namespace}/${run.command}`, 'svc.pack.version': run.packVersion, 'svc.tenant.id': run.tenantId };
}
