import { describe, expect, it } from 'vitest';
import { containerOf, renderOverlay } from './kustomize.js';
import { fleetProcesses } from './repo.js';

const env = (deployment: any, name: string) => containerOf(deployment).env?.find((e: any) => e.name === name)?.value;
const EXEC_QUEUES = ['exec.fast', 'exec.medium', 'exec.long'];

describe('CPU autoscaling in the prod overlay', () => {
  const objects = renderOverlay('prod');
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  const autoscalers = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');

  it('scales the gateway and every API service on CPU, from at least the one replica it had', () => {
    const apiProcesses = fleetProcesses().filter((p) => p.port !== undefined).map((p) => p.name);
    expect(autoscalers.map((a) => a.spec.scaleTargetRef.name).sort()).toEqual(apiProcesses.sort());
    for (const hpa of autoscalers) {
      const target = deployments.find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name);
      expect(target, hpa.metadata.name).toBeDefined();
      expect(hpa.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(hpa.spec.minReplicas, hpa.metadata.name).toBeGreaterThanOrEqual(1);
      expect(hpa.spec.maxReplicas, hpa.metadata.name).toBeGreaterThan(hpa.spec.minReplicas);
      expect(hpa.spec.metrics, hpa.metadata.name).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } }]);
      // Utilization is a share of the request: without one the autoscaler cannot act.
      expect(containerOf(target).resources.requests.cpu, hpa.metadata.name).toBeDefined();
    }
  });

  it('leaves the replica count of what it scales to the autoscaler, and runs the scaled processes twice or more', () => {
    for (const hpa of autoscalers) {
      const target = deployments.find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name);
      expect(target.spec.replicas, `${hpa.metadata.name}: a count of its own would be put back at each apply`).toBeUndefined();
    }
    // Everything but billing (webhooks and checkout, light) runs two replicas or more at rest.
    expect(autoscalers.filter((a) => a.spec.minReplicas < 2).map((a) => a.metadata.name)).toEqual(['billing']);
    expect(deployments.find((d) => d.metadata.name === 'execution-worker').spec.replicas).toBeGreaterThanOrEqual(2);
  });
});

describe('queue-depth autoscaling of the workers (components/queue-autoscaling on prod)', () => {
  const objects = renderOverlay('prod', ['queue-autoscaling']);
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  const scaled = objects.filter((o) => o.kind === 'ScaledObject');

  it('scales fast and long workers apart, each on the queues it consumes, every queue taken by exactly one', () => {
    const taken: string[] = [];
    expect(scaled.map((s) => s.spec.scaleTargetRef.name).sort()).toEqual(['execution-worker', 'execution-worker-long']);
    for (const object of scaled) {
      const target = deployments.find((d) => d.metadata.name === object.spec.scaleTargetRef.name);
      expect(target, object.metadata.name).toBeDefined();
      expect(target.spec.replicas, `${object.metadata.name}: KEDA owns its count`).toBeUndefined();
      const queues = object.spec.triggers.map((t: any) => {
        expect(t.type).toBe('rabbitmq');
        expect(t.metadata.mode).toBe('QueueLength');
        expect(Number(t.metadata.value)).toBeGreaterThan(0);
        return t.metadata.queueName as string;
      });
      expect(env(target, 'SVC_WORKER_QUEUES')?.split(',').map((q: string) => `exec.${q}`), object.metadata.name).toEqual(queues);
      taken.push(...queues);
    }
    expect(taken.sort()).toEqual([...EXEC_QUEUES].sort());
    // Synchronous runs wait on the fast workers: never down to zero.
    expect(scaled.find((s) => s.metadata.name === 'execution-worker').spec.minReplicaCount).toBeGreaterThanOrEqual(2);
  });

  it('reads the broker from svc-secrets through a TriggerAuthentication that exists', () => {
    const auths = objects.filter((o) => o.kind === 'TriggerAuthentication');
    for (const trigger of scaled.flatMap((s) => s.spec.triggers)) {
      const auth = auths.find((a) => a.metadata.name === trigger.authenticationRef.name);
      expect(auth?.spec.secretTargetRef).toEqual([{ parameter: 'host', name: 'svc-secrets', key: 'AMQP_URL' }]);
    }
  });

  it('gives the long workers the fast ones\' pod, with a grace that covers a medium task, a NetworkPolicy as strict and a disruption budget', () => {
    const [fast, long] = ['execution-worker', 'execution-worker-long'].map((name) => deployments.find((d) => d.metadata.name === name));
    const withoutQueues = (d: any) => ({ ...containerOf(d), env: containerOf(d).env.filter((e: any) => e.name !== 'SVC_WORKER_QUEUES') });
    expect(withoutQueues(long)).toEqual(withoutQueues(fast));
    expect(long.metadata.namespace).toBe(fast.metadata.namespace);
    expect(long.spec.template.spec.securityContext).toEqual(fast.spec.template.spec.securityContext);
    expect(long.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(300);
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    const policyOf = (app: string) => policies.find((p) => p.metadata.name === app);
    expect(policyOf('execution-worker-long').spec.podSelector.matchLabels).toEqual({ app: 'execution-worker-long' });
    expect(policyOf('execution-worker-long').spec.egress).toEqual(policyOf('execution-worker').spec.egress);
    const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget').map((b) => b.spec.selector.matchLabels.app);
    expect(budgets).toEqual(expect.arrayContaining(['execution-worker', 'execution-worker-long']));
  });
});
