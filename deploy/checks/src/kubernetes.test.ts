import { describe, expect, it } from 'vitest';
import { containerOf, K8S, kustomizations, manifests, renderOverlay } from './kustomize.js';
import { documentedVariables, exists, filesUnder, fleetProcesses, isDirectory, read } from './repo.js';

const fleet = fleetProcesses();
const all = manifests();
const deployments = all.filter((m) => m.doc.kind === 'Deployment' && m.role === 'resource');
const deploymentPatches = all.filter((m) => m.doc.kind === 'Deployment' && m.role === 'patch');
const SECRET_KEYS = ['DATABASE_URL', 'DATABASE_MIGRATION_URL', 'REDIS_URL', 'AMQP_URL', 'SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_SSH_ENCRYPTION_KEY', 'SMTP_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];
/** Read from the Secret of the process's own Postgres roles, `svc-<owner>-db`; the rest from `svc-secrets`. */
const DATABASE_KEYS = ['DATABASE_URL', 'DATABASE_MIGRATION_URL'];
const ROLES_SCRIPT = 'k8s/components/in-cluster-infra/postgres-roles.sh';

/** Whose schema a process uses: the workers (fast and, with queue-autoscaling, long) share execution's. */
const ownerOf = (process: string) => (process.startsWith('execution-worker') ? 'execution' : process);
const databaseSecretOf = (process: string) => `svc-${ownerOf(process)}-db`;

/** The services postgres-roles.sh makes a runtime role and a migrator for, and the roles it makes alone (the gateway's). */
function rolesScript() {
  const script = read(ROLES_SCRIPT);
  const services = /^for service in ([a-z -]+); do$/m.exec(script)?.[1]?.split(' ') ?? [];
  const alone = [...script.matchAll(/^role svc_([a-z]+) /gm)].map((m) => m[1]!);
  return { script, services, alone };
}

function inBase(kind: string, name: string) {
  return all.find((m) => m.file.startsWith(`${K8S}/base/${name}/`) && m.doc.kind === kind && m.doc.metadata.name === name);
}

/** Bytes of a Kubernetes memory quantity (`256Mi`, `2Gi`). */
function bytes(quantity: string): number {
  const units: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };
  const [, value, unit] = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity) ?? [];
  return Number(value) * (unit ? units[unit]! : 1);
}

describe('k8s kustomizations', () => {
  const found = kustomizations();

  it('exist for the base, one folder per process, two overlays and the components', () => {
    const dirs = found.map((k) => k.dir);
    expect(dirs).toEqual(expect.arrayContaining([`${K8S}/base`, `${K8S}/overlays/dev`, `${K8S}/overlays/prod`, ...fleet.map((p) => `${K8S}/base/${p.name}`)]));
    const components = found.filter((k) => k.dir.startsWith(`${K8S}/components/`));
    expect(components.length).toBeGreaterThan(0);
    for (const component of components) {
      expect(component.kind, component.file).toBe('Component');
      expect(exists(`${component.dir}/README.md`), `${component.dir}/README.md`).toBe(true);
    }
  });

  it('list only files and folders that exist (folders holding a kustomization)', () => {
    const broken = found.flatMap((k) =>
      k.references.filter((path) => !exists(path) || (isDirectory(path) && !exists(`${path}/kustomization.yaml`))).map((path) => `${k.file}: ${path}`),
    );
    expect(broken).toEqual([]);
  });

  it('leave no manifest unlisted', () => {
    const listed = new Set(found.flatMap((k) => k.references));
    const orphans = filesUnder(K8S).filter((file) => file.endsWith('.yaml') && !file.endsWith('/kustomization.yaml') && !listed.has(file));
    expect(orphans).toEqual([]);
  });

  it('build the whole fleet from the base', () => {
    const base = found.find((k) => k.dir === `${K8S}/base`)!;
    for (const { name } of fleet) expect(base.references, name).toContain(`${K8S}/base/${name}`);
    for (const overlay of ['dev', 'prod']) {
      expect(found.find((k) => k.dir === `${K8S}/overlays/${overlay}`)!.references, overlay).toContain(`${K8S}/base`);
    }
  });
});

describe('k8s base: one folder per process', () => {
  it('holds a Deployment named like the process and its app label, running its bundle', () => {
    for (const { name, entry } of fleet) {
      const deployment = inBase('Deployment', name)?.doc;
      expect(deployment, `${K8S}/base/${name}: Deployment ${name}`).toBeDefined();
      expect(deployment.metadata.labels.app).toBe(name);
      expect(deployment.spec.selector.matchLabels).toEqual({ app: name });
      expect(deployment.spec.template.metadata.labels.app).toBe(name);
      const container = containerOf(deployment);
      expect(container.image, name).toBe('svc');
      expect(container.command[0], name).toBe('node');
      expect(container.command.at(-1), name).toBe(entry);
    }
  });

  it('holds a Service of the same name on the process port, except for the worker', () => {
    // The gateway also listens for the dashboard origin (bundle files only).
    const also: Record<string, number[]> = { gateway: [8180] };
    for (const { name, port } of fleet) {
      const service = inBase('Service', name)?.doc;
      if (port === undefined) {
        expect(service, `${name} listens on no port and has no Service`).toBeUndefined();
        continue;
      }
      expect(service, `${K8S}/base/${name}: Service ${name}`).toBeDefined();
      expect(service.metadata.labels.app).toBe(name);
      expect(service.spec.selector).toEqual({ app: name });
      const ports = [port, ...(also[name] ?? [])];
      expect(service.spec.ports.map((p: any) => p.port), name).toEqual(ports);
      const container = containerOf(inBase('Deployment', name)!.doc);
      expect(container.ports.map((p: any) => p.containerPort), name).toEqual(ports);
      expect(container.env.find((e: any) => e.name === 'PORT')?.value, name).toBe(String(port));
      if (also[name]) expect(container.env.find((e: any) => e.name === 'SVC_DASHBOARD_ORIGIN_PORT')?.value, name).toBe(String(also[name][0]));
    }
  });

  it('keeps packages and bundles in the blob store of BLOB_STORE_URL, on no volume of their own, so registry and dashboard scale', () => {
    const config = all.find((m) => m.doc.kind === 'ConfigMap' && m.role === 'resource' && m.file.startsWith(`${K8S}/base/`))!.doc;
    expect(config.data.BLOB_STORE_URL).toMatch(/^s3:\/\/[a-z0-9.-]+\//);
    expect(all.filter((m) => m.file.startsWith(`${K8S}/base/`) && m.doc.kind === 'PersistentVolumeClaim').map((m) => m.file)).toEqual([]);
    for (const name of ['registry', 'dashboard']) {
      const deployment = inBase('Deployment', name)!.doc;
      expect(deployment.spec.strategy?.type, name).not.toBe('Recreate');
      expect(deployment.spec.template.spec.volumes.filter((v: any) => v.persistentVolumeClaim), name).toEqual([]);
    }
  });

  it('keeps the worker to DNS, Postgres and RabbitMQ, with no Redis URL and nothing coming in but the probes', () => {
    const policy = inBase('NetworkPolicy', 'execution-worker')?.doc;
    expect(policy, `${K8S}/base/execution-worker: NetworkPolicy execution-worker`).toBeDefined();
    expect(policy.spec.podSelector.matchLabels).toEqual({ app: 'execution-worker' });
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const ports = policy.spec.egress.flatMap((rule: any) => rule.ports.map((p: any) => `${p.protocol}/${p.port}`));
    expect(ports.sort()).toEqual(['TCP/53', 'TCP/5432', 'TCP/5672', 'UDP/53']);
    const worker = containerOf(inBase('Deployment', 'execution-worker')!.doc);
    expect(policy.spec.ingress.flatMap((rule: any) => rule.ports.map((p: any) => String(p.port)))).toEqual([worker.env.find((e: any) => e.name === 'SVC_HEALTH_PORT')?.value]);
    expect(worker.env.map((e: any) => e.name)).not.toContain('REDIS_URL');
  });

  it('gives the worker its probe port and more memory than any other process', () => {
    const worker = containerOf(inBase('Deployment', 'execution-worker')!.doc);
    const healthPort = worker.env.find((e: any) => e.name === 'SVC_HEALTH_PORT')?.value;
    expect(worker.ports.map((p: any) => String(p.containerPort))).toEqual([healthPort]);
    const others = fleet.filter((p) => p.name !== 'execution-worker').map((p) => bytes(containerOf(inBase('Deployment', p.name)!.doc).resources.limits.memory));
    expect(bytes(worker.resources.limits.memory)).toBeGreaterThan(Math.max(...others));
  });
});

describe('every Deployment under k8s/', () => {
  it('runs non-root with a read-only root filesystem, no privilege escalation and no capabilities', () => {
    expect(deployments.length).toBeGreaterThanOrEqual(fleet.length);
    for (const { file, doc } of deployments) {
      const pod = doc.spec.template.spec;
      for (const container of pod.containers) {
        const where = `${file}: ${container.name}`;
        expect(container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot, where).toBe(true);
        expect(pod.securityContext?.runAsUser ?? container.securityContext?.runAsUser, where).toBeGreaterThan(0);
        expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true);
        expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false);
        expect(container.securityContext?.capabilities?.drop, where).toContain('ALL');
      }
    }
  });

  it('gives the read-only containers a writable /tmp', () => {
    for (const { file, doc } of deployments) {
      const pod = doc.spec.template.spec;
      for (const container of pod.containers) {
        const tmp = container.volumeMounts?.find((m: any) => m.mountPath === '/tmp');
        expect(pod.volumes?.find((v: any) => v.name === tmp?.name)?.emptyDir, `${file}: /tmp`).toBeDefined();
      }
    }
  });

  it('has liveness and readiness probes, on /healthz and /readyz where the process serves them', () => {
    for (const { file, doc } of deployments) {
      for (const container of doc.spec.template.spec.containers) {
        expect(container.livenessProbe, `${file}: livenessProbe`).toBeDefined();
        expect(container.readinessProbe, `${file}: readinessProbe`).toBeDefined();
        if (doc.metadata.name === 'gateway') {
          // The gateway keeps its own /health and has no /healthz or /readyz.
          expect(container.readinessProbe.httpGet.path).toBe('/health');
          continue;
        }
        expect(container.livenessProbe.httpGet?.path, file).toBe('/healthz');
        expect(container.readinessProbe.httpGet?.path, file).toBe('/readyz');
        const portNames = container.ports.map((p: any) => p.name);
        expect(portNames, file).toContain(container.livenessProbe.httpGet.port);
        expect(portNames, file).toContain(container.readinessProbe.httpGet.port);
      }
    }
  });

  it('has CPU and memory requests and limits', () => {
    for (const { file, doc } of deployments) {
      for (const container of doc.spec.template.spec.containers) {
        for (const bound of ['requests', 'limits']) {
          for (const resource of ['cpu', 'memory']) expect(container.resources?.[bound]?.[resource], `${file}: ${bound}.${resource}`).toBeDefined();
        }
        expect(bytes(container.resources.limits.memory), file).toBeGreaterThanOrEqual(bytes(container.resources.requests.memory));
      }
    }
  });

  it('is patched by overlays only where a base Deployment and container of that name exist, limits above requests', () => {
    expect(deploymentPatches.length).toBeGreaterThan(0);
    for (const { file, doc } of deploymentPatches) {
      const target = deployments.find((d) => d.doc.metadata.name === doc.metadata.name)?.doc;
      expect(target, `${file}: Deployment ${doc.metadata.name}`).toBeDefined();
      for (const container of doc.spec.template.spec.containers) {
        expect(target.spec.template.spec.containers.map((c: any) => c.name), `${file}: ${container.name}`).toContain(container.name);
        const { requests, limits } = container.resources ?? {};
        if (requests?.memory && limits?.memory) expect(bytes(limits.memory), file).toBeGreaterThanOrEqual(bytes(requests.memory));
      }
    }
  });

  it('takes the URLs and secrets from the Secret svc-secrets (database URLs from its own), never as plain values', () => {
    for (const { file, doc } of [...deployments, ...deploymentPatches]) {
      for (const container of doc.spec.template.spec.containers) {
        for (const env of container.env ?? []) {
          if (!SECRET_KEYS.includes(env.name)) continue;
          expect(env.value, `${file}: ${env.name}`).toBeUndefined();
          const { optional: _optional, ...ref } = env.valueFrom?.secretKeyRef ?? {};
          const secret = DATABASE_KEYS.includes(env.name) ? databaseSecretOf(doc.metadata.name) : 'svc-secrets';
          expect(ref, `${file}: ${env.name}`).toEqual({ name: secret, key: env.name });
        }
        if (deploymentPatches.some((p) => p.doc === doc)) continue;
        // The workers use no cache: pack code runs in their pods, so they hold no Redis credentials.
        const urls = ownerOf(doc.metadata.name) !== doc.metadata.name ? ['DATABASE_URL', 'AMQP_URL'] : ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL'];
        for (const name of urls) {
          expect(container.env.some((e: any) => e.name === name), `${file}: ${name}`).toBe(true);
        }
        expect(container.envFrom, file).toEqual([{ configMapRef: { name: 'svc-config' } }]);
      }
    }
  });
});

describe('k8s Postgres roles: each service its own, as compose has them', () => {
  it("connects each process as its service's runtime role and migrates as its migrator, both from the service's own Secret", () => {
    for (const { name } of fleet) {
      const env = containerOf(inBase('Deployment', name)!.doc).env as any[];
      const from = (key: string) => env.find((e) => e.name === key)?.valueFrom?.secretKeyRef;
      expect(from('DATABASE_URL'), `${name}: DATABASE_URL`).toEqual({ name: databaseSecretOf(name), key: 'DATABASE_URL' });
      // The gateway only connects (readiness); it owns no schema.
      if (name === 'gateway') expect(from('DATABASE_MIGRATION_URL'), name).toBeUndefined();
      else expect(from('DATABASE_MIGRATION_URL'), `${name}: DATABASE_MIGRATION_URL`).toEqual({ name: databaseSecretOf(name), key: 'DATABASE_MIGRATION_URL' });
    }
  });

  it('has postgres-roles.sh make the roles of every process', () => {
    const { script, services, alone } = rolesScript();
    for (const { name } of fleet) expect(name === 'gateway' ? alone : services, `${ROLES_SCRIPT}: ${name}`).toContain(ownerOf(name));
    expect(script).toMatch(/NOSUPERUSER NOCREATEDB NOCREATEROLE/);
  });

  it("makes the same roles in the in-cluster Postgres, with each service's password from its Secret", () => {
    const component = `${K8S}/components/in-cluster-infra`;
    const generator = kustomizations().find((k) => k.dir === component)!.raw.configMapGenerator?.find((g: any) => g.name === 'postgres-roles');
    expect(generator?.files).toEqual(['10-roles.sh=postgres-roles.sh']);
    const postgres = all.find((m) => m.file.startsWith(`${component}/`) && m.doc.kind === 'StatefulSet' && m.doc.metadata.name === 'postgres')!.doc;
    const volume = postgres.spec.template.spec.volumes.find((v: any) => v.configMap?.name === 'postgres-roles');
    expect(containerOf(postgres).volumeMounts.find((m: any) => m.name === volume?.name)?.mountPath).toBe('/docker-entrypoint-initdb.d');
    const { services, alone } = rolesScript();
    for (const owner of [...services, ...alone]) {
      const env = containerOf(postgres).env.find((e: any) => e.name === `DB_${owner.toUpperCase()}_PASSWORD`);
      expect(env?.valueFrom?.secretKeyRef, `postgres: DB_${owner.toUpperCase()}_PASSWORD`).toEqual({ name: `svc-${owner}-db`, key: 'PASSWORD' });
    }
  });
});

describe('k8s configuration', () => {
  const configMaps = all.filter((m) => m.doc.kind === 'ConfigMap');

  it('holds no Secret: the values live in the cluster, not in the repository', () => {
    expect(all.filter((m) => m.doc.kind === 'Secret').map((m) => m.file)).toEqual([]);
    expect(kustomizations().filter((k) => k.raw.secretGenerator).map((k) => k.file)).toEqual([]);
  });

  it('shares only non-secret settings in the ConfigMap', () => {
    expect(configMaps.length).toBeGreaterThan(0);
    for (const { file, doc } of configMaps) {
      for (const key of SECRET_KEYS) expect(Object.keys(doc.data), `${file}: ${key}`).not.toContain(key);
    }
  });

  it('sets only variables the README configuration table documents', () => {
    const documented = documentedVariables();
    const fromConfigMaps = configMaps.flatMap(({ file, doc }) => Object.keys(doc.data).map((v) => `${file}: ${v}`));
    const fromDeployments = [...deployments, ...deploymentPatches].flatMap(({ file, doc }) => (containerOf(doc).env ?? []).map((e: any) => `${file}: ${e.name}`));
    expect([...fromConfigMaps, ...fromDeployments].filter((entry) => !documented.has(entry.split(': ')[1]!))).toEqual([]);
  });

  it('points the gateway at every service by its Service name and port', () => {
    const config = configMaps.find((m) => m.role === 'resource' && m.file.startsWith(`${K8S}/base/`))!.doc.data;
    for (const { name, port } of fleet.filter((p) => p.port !== undefined && p.name !== 'gateway')) {
      expect(config[`SVC_${name.toUpperCase()}_URL`], name).toBe(`http://${name}:${port}`);
    }
  });
});

describe('the monitoring component on the prod overlay', () => {
  it('gives every Deployment the metrics port its PodMonitor scrapes, with SVC_METRICS_PORT set to it', () => {
    const objects = renderOverlay('prod', ['monitoring']);
    const monitor = objects.find((o) => o.kind === 'PodMonitor');
    const port = monitor.spec.podMetricsEndpoints[0].port;
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'svc-config');
    const deployments = objects.filter((o) => o.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(fleet.map((p) => p.name).sort());
    for (const deployment of deployments) {
      for (const [label, value] of Object.entries(monitor.spec.selector.matchLabels)) expect(deployment.spec.template.metadata.labels[label], deployment.metadata.name).toBe(value);
      const declared = containerOf(deployment).ports.find((p: any) => p.name === port);
      expect(String(declared?.containerPort), deployment.metadata.name).toBe(config.data.SVC_METRICS_PORT);
    }
    const dashboard = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
    const panels = JSON.parse(dashboard.data['svc-fleet.json']).panels as { targets: { expr: string }[] }[];
    const families = new Set(panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/svc_[a-z_]+/g)].map((m) => m[0]))));
    expect(families.size).toBeGreaterThanOrEqual(8);
  });
});

describe('the blob-volume component as the dev overlay renders it', () => {
  it('mounts one claim into registry and dashboard at the folder BLOB_STORE_URL names', () => {
    const objects = renderOverlay('dev');
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'svc-config');
    const folder = new URL(config.data.BLOB_STORE_URL).pathname;
    expect(config.data.BLOB_STORE_URL).toMatch(/^file:\/\/\//);
    const claims = objects.filter((o) => o.kind === 'PersistentVolumeClaim').map((o) => o.metadata.name);
    for (const name of ['registry', 'dashboard']) {
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
      const mount = containerOf(deployment).volumeMounts.find((m: any) => m.mountPath === folder);
      const claim = deployment.spec.template.spec.volumes.find((v: any) => v.name === mount?.name)?.persistentVolumeClaim?.claimName;
      expect(claims, name).toContain(claim);
    }
  });
});

describe.each(['dev', 'prod'])('the %s overlay as kubectl kustomize renders it', (overlay) => {
  it('keeps every process hardened, probed and bounded after its patches, in one namespace', () => {
    const objects = renderOverlay(overlay);
    const namespace = objects.find((o) => o.kind === 'Namespace')?.metadata.name;
    expect(namespace).toBeDefined();
    const deploymentsOf = objects.filter((o) => o.kind === 'Deployment');
    expect(deploymentsOf.map((d) => d.metadata.name).sort()).toEqual(fleet.map((p) => p.name).sort());
    for (const deployment of deploymentsOf) {
      const container = containerOf(deployment);
      const where = `${overlay}: ${deployment.metadata.name}`;
      expect(deployment.metadata.namespace, where).toBe(namespace);
      expect(container.image, where).not.toBe('svc');
      expect(container.securityContext.readOnlyRootFilesystem, where).toBe(true);
      expect(container.livenessProbe && container.readinessProbe, where).toBeTruthy();
      expect(bytes(container.resources.limits.memory), where).toBeGreaterThanOrEqual(bytes(container.resources.requests.memory));
    }
  });
});
