import { describe, expect, it } from 'vitest';
import { readYamlDocuments } from './repo.js';
import { renderOverlay } from './kustomize.js';
import { schemaErrors } from './schemas.js';

/** Every component together, on the prod overlay, in the order their READMEs give. */
const ALL_COMPONENTS = ['queue-autoscaling', 'monitoring', 'pack-egress', 'rabbitmq-cluster'];

/**
 * Resources of operators whose schemas no npm package carries: held to the fields the
 * component's README promises instead.
 */
const UNPACKAGED: Record<string, (object: any) => void> = {
  'rabbitmq.com/v1beta1/RabbitmqCluster': (cluster) => {
    expect(cluster.spec.replicas % 2, 'an odd number of nodes keeps a majority').toBe(1);
    expect(cluster.spec.replicas).toBeGreaterThanOrEqual(3);
    expect(cluster.spec.persistence.storage).toMatch(/^\d+Gi$/);
    expect(cluster.spec.rabbitmq.additionalConfig).toMatch(/cluster_partition_handling = pause_minority/);
  },
};

const renders: [string, () => any[]][] = [
  ['dev', () => renderOverlay('dev')],
  ['prod', () => renderOverlay('prod')],
  [`prod with ${ALL_COMPONENTS.join(', ')}`, () => renderOverlay('prod', ALL_COMPONENTS)],
];

describe.each(renders)('the %s overlay, rendered', (_name, render) => {
  it('is made only of objects the Kubernetes (or their operator) schemas accept', async () => {
    const objects = render();
    expect(objects.length).toBeGreaterThan(30);
    const refused: string[] = [];
    for (const object of objects) {
      const where = `${object.apiVersion} ${object.kind} ${object.metadata?.name}`;
      const errors = await schemaErrors(object);
      if (errors === undefined) {
        const check = UNPACKAGED[`${object.apiVersion}/${object.kind}`];
        if (!check) refused.push(`${where}: no schema packaged for it, and no check of its own here`);
        else check(object);
      } else if (errors) {
        refused.push(`${where}: ${errors}`);
      }
    }
    expect(refused).toEqual([]);
  });
});

describe('the schema check itself', () => {
  it('refuses a Deployment, an HPA and a ScaledObject with a wrong field, and knows no made-up kind', async () => {
    const [deployment] = readYamlDocuments('k8s/base/storage/deployment.yaml');
    expect(await schemaErrors(deployment)).toBe('');
    expect(await schemaErrors({ ...deployment, spec: { ...deployment.spec, replicas: 'two' } })).toMatch(/replicas must be integer/);
    const hpa = readYamlDocuments('k8s/overlays/prod/hpa.yaml')[0];
    expect(await schemaErrors({ ...hpa, spec: { ...hpa.spec, scaleTargetRef: undefined } })).toMatch(/scaleTargetRef/);
    const scaled = readYamlDocuments('k8s/components/queue-autoscaling/scaled-objects.yaml')[0];
    expect(await schemaErrors(scaled)).toBe('');
    expect(await schemaErrors({ ...scaled, spec: { ...scaled.spec, triggers: 'rabbitmq' } })).toMatch(/triggers must be array/);
    expect(await schemaErrors({ apiVersion: 'example.com/v1', kind: 'Nothing' })).toBeUndefined();
  });
});
