import { describe, expect, it } from 'vitest';
import { copyPaths, parseDockerfile } from './dockerfile.js';
import { K8S, manifests, renderOverlay } from './kustomize.js';
import { read } from './repo.js';

const job = manifests().find((m) => m.doc.kind === 'Job' && m.doc.metadata.name === 'migrate')!;
/** The services postgres-roles.sh gives a migrator: each owns a schema and its migrations. */
const owners = /^for service in ([a-z -]+); do$/m.exec(read('k8s/components/in-cluster-infra/postgres-roles.sh'))![1]!.split(' ');

describe('the migration Job of the base', () => {
  it('is in the base, and the base config turns start-up migrations off', () => {
    expect(job?.file).toBe(`${K8S}/base/migrate/job.yaml`);
    const config = manifests().find((m) => m.doc.kind === 'ConfigMap' && m.file === `${K8S}/base/config.yaml`)!.doc.data;
    expect(config.SVC_MIGRATE_AT_START).toBe('false');
    expect(Number(config.SVC_MIGRATION_WAIT_SECONDS)).toBeGreaterThan(0);
  });

  it('has processes give up waiting, saying why, before their startup probe would have them killed', () => {
    const wait = Number(manifests().find((m) => m.file === `${K8S}/base/config.yaml`)!.doc.data.SVC_MIGRATION_WAIT_SECONDS);
    const deployments = manifests().filter((m) => m.doc.kind === 'Deployment' && m.role === 'resource' && m.doc.metadata.name !== 'gateway');
    expect(deployments.length).toBeGreaterThan(5);
    for (const { file, doc } of deployments) {
      const probe = doc.spec.template.spec.containers[0].startupProbe;
      expect(probe, file).toBeDefined();
      expect(wait, file).toBeLessThan(probe.periodSeconds * probe.failureThreshold);
    }
  });

  it("migrates every service's schema, each in a container of its own as that service's migrator", () => {
    const containers = job.doc.spec.template.spec.containers as any[];
    expect(containers.map((c) => c.name).sort()).toEqual([...owners].sort());
    for (const container of containers) {
      expect(container.image, container.name).toBe('svc');
      expect(container.command, container.name).toEqual(['node', '--enable-source-maps', 'deploy/migrate/dist/main.js', container.name]);
      for (const key of ['DATABASE_URL', 'DATABASE_MIGRATION_URL']) {
        expect(container.env.find((e: any) => e.name === key)?.valueFrom.secretKeyRef, `${container.name}: ${key}`).toEqual({ name: `svc-${container.name}-db`, key });
      }
    }
  });

  it('runs hardened and bounded, retried while the database comes up', () => {
    const pod = job.doc.spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.restartPolicy).toBe('OnFailure');
    expect(job.doc.spec.backoffLimit).toBeGreaterThan(0);
    expect(job.doc.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    for (const container of pod.containers) {
      expect(container.securityContext, container.name).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
      expect(container.resources.limits, container.name).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    }
  });

  it('runs a command the image holds, beside every migrations folder', () => {
    const copied = parseDockerfile(read('deploy/docker/Dockerfile'))
      .stages.at(-1)!
      .instructions.filter((i) => i.keyword === 'COPY')
      .map((i) => copyPaths(i).destination.replace(/^\.\//, ''));
    expect(copied).toContain('deploy/migrate/dist');
    for (const owner of owners) expect(copied, owner).toContain(`services/${owner}/drizzle`);
  });

  it('is rendered into both overlays with their image and namespace', () => {
    for (const overlay of ['dev', 'prod']) {
      const objects = renderOverlay(overlay);
      const rendered = objects.find((o) => o.kind === 'Job' && o.metadata.name === 'migrate');
      expect(rendered.metadata.namespace, overlay).toBe(objects.find((o) => o.kind === 'Namespace').metadata.name);
      for (const container of rendered.spec.template.spec.containers) expect(container.image, overlay).not.toBe('svc');
    }
  });
});
