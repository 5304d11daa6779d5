import { describe, expect, it } from 'vitest';
import { copyPaths, parseDockerfile } from './dockerfile.js';
import { documentedVariables, fleetProcesses, read, readYaml } from './repo.js';

const compose = readYaml('docker-compose.yml');
const services: Record<string, any> = compose.services;
const INFRA = ['postgres', 'redis', 'rabbitmq'];
/** Started only with their profile (`--profile s3`, `--profile monitoring`). */
const OPTIONAL = { minio: 's3', 'minio-bucket': 's3', prometheus: 'monitoring' } as const;
const fleet = fleetProcesses();
/** The containers that run our image (not the official infrastructure images). */
const ours = Object.entries(services).filter(([name]) => !INFRA.includes(name) && !(name in OPTIONAL));

/** `${NAME:-default}` and `${NAME}` references, which docker compose fills from `.env`. */
function interpolated(text: string): string[] {
  return [...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(?::?[-?+][^}]*)?\}/g)].map((m) => m[1]!);
}

describe('docker-compose.yml', () => {
  it('runs every process of scripts/fleet.mjs as a service of the same name, and nothing else of ours', () => {
    expect(fleet.length).toBeGreaterThanOrEqual(7);
    expect(ours.map(([name]) => name).sort()).toEqual(fleet.map((p) => p.name).sort());
  });

  it('starts each from the one image with the command that runs its bundle', () => {
    const image = services.gateway.image;
    for (const { name, entry } of fleet) {
      expect(services[name].image, name).toBe(image);
      expect(services[name].build, name).toEqual({ context: '.', dockerfile: 'deploy/docker/Dockerfile' });
      expect(services[name].command[0], name).toBe('node');
      expect(services[name].command.at(-1), name).toBe(entry);
    }
  });

  it('gives each HTTP process the port scripts/fleet.mjs gives it', () => {
    for (const { name, port } of fleet.filter((p) => p.port !== undefined)) {
      expect(services[name].environment.PORT, name).toBe(String(port));
    }
  });

  it('runs our containers hardened: non-root, read-only root filesystem, no capabilities', () => {
    for (const [name, service] of ours) {
      expect(service.user, name).toMatch(/^[1-9]\d*:\d+$/);
      expect(service.read_only, name).toBe(true);
      expect(service.cap_drop, name).toEqual(['ALL']);
      expect(service.security_opt, name).toContain('no-new-privileges:true');
    }
  });

  it('has official infrastructure images with health checks', () => {
    for (const name of INFRA) {
      expect(services[name].image, name).toMatch(new RegExp(`^${name}:[\\w.-]+$`));
      expect(services[name].healthcheck?.test, name).toBeDefined();
    }
  });

  it('waits for healthy dependencies, each of which has a health check', () => {
    for (const [name, service] of ours) {
      for (const infra of INFRA) expect(service.depends_on?.[infra]?.condition, `${name} → ${infra}`).toBe('service_healthy');
      for (const [dependency, { condition }] of Object.entries<any>(service.depends_on)) {
        expect(condition, `${name} → ${dependency}`).toBe('service_healthy');
        expect(services[dependency]?.healthcheck?.test, `${dependency} has a health check`).toBeDefined();
      }
    }
    const behindGateway = fleet.filter((p) => p.port !== undefined && p.name !== 'gateway').map((p) => p.name);
    for (const name of behindGateway) expect(services.gateway.depends_on[name]?.condition, `gateway → ${name}`).toBe('service_healthy');
  });

  it('checks readiness of every process on /readyz at its own port (the gateway on /health)', () => {
    const probe = parseDockerfile(read('deploy/docker/Dockerfile'))
      .stages.at(-1)!
      .instructions.filter((i) => i.keyword === 'COPY')
      .map((i) => copyPaths(i).destination.replace(/^\.\//, ''));
    for (const [name, service] of ours) {
      const test: string[] = service.healthcheck.test;
      expect(test.slice(0, 3), name).toEqual(['CMD', 'node', 'deploy/docker/probe.mjs']);
      expect(probe, 'the probe script is in the image').toContain('deploy/docker/probe.mjs');
      const [path, port] = test.slice(3);
      if (name === 'gateway') {
        expect(path).toBe('/health');
      } else if (service.environment.PORT) {
        expect([path, port], name).toEqual(['/readyz', undefined]);
      } else {
        expect([path, port], name).toEqual(['/readyz', service.environment.SVC_HEALTH_PORT]);
      }
    }
  });

  it('points the gateway at every service by its compose name and port', () => {
    for (const { name, port } of fleet.filter((p) => p.port !== undefined && p.name !== 'gateway')) {
      expect(services.gateway.environment[`SVC_${name.toUpperCase()}_URL`], name).toBe(`http://${name}:${port}`);
    }
    // The API origin, and the dashboard origin (bundle files only) on its second listener.
    expect(services.gateway.ports).toEqual(['8080:8080', '8180:8180']);
    expect(services.gateway.environment.SVC_DASHBOARD_ORIGIN_PORT).toBe('8180');
    expect(services.dashboard.environment.SVC_DASHBOARD_ORIGIN).toBe('http://localhost:8180');
  });

  it('keeps the registry blobs and the worker packs on volumes at their SVC_DATA_DIR', () => {
    for (const name of ['registry', 'execution-worker']) {
      const dataDir = services[name].environment.SVC_DATA_DIR;
      expect(dataDir, name).toBeDefined();
      const volume = (services[name].volumes as string[]).map((v) => v.split(':')).find(([, target]) => target === dataDir);
      expect(volume, `${name} mounts a volume at ${dataDir}`).toBeDefined();
      expect(Object.keys(compose.volumes), name).toContain(volume![0]);
    }
  });

  it('sets only variables the README configuration table documents', () => {
    const documented = documentedVariables();
    const undocumented = ours.flatMap(([name, service]) => Object.keys(service.environment).filter((v) => !documented.has(v)).map((v) => `${name}: ${v}`));
    expect(undocumented).toEqual([]);
  });

  it('makes Redis, RabbitMQ and Postgres ask for a password, and the URLs carry it', () => {
    expect(services.redis.command.join(' ')).toMatch(/--requirepass \$\{REDIS_PASSWORD:-/);
    expect(services.rabbitmq.environment.RABBITMQ_DEFAULT_PASS).toMatch(/\$\{RABBITMQ_PASSWORD/);
    expect(services.postgres.environment.POSTGRES_PASSWORD).toMatch(/\$\{POSTGRES_PASSWORD/);
    for (const [name, service] of ours) {
      if (service.environment.REDIS_URL) expect(service.environment.REDIS_URL, name).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD/);
      expect(service.environment.AMQP_URL, name).toMatch(/^amqp:\/\/svc:\$\{RABBITMQ_PASSWORD/);
    }
  });

  it('connects each process to Postgres as a role of its own, never the superuser, and migrates as another', () => {
    const roles = read('k8s/components/in-cluster-infra/postgres-roles.sh');
    for (const [name, service] of ours) {
      const owner = name === 'execution-worker' ? 'execution' : name;
      expect(service.environment.DATABASE_URL, name).toMatch(new RegExp(`^postgres://svc_${owner}:\\$\\{DB_${owner.toUpperCase()}_PASSWORD:-`));
      if (name !== 'gateway') expect(service.environment.DATABASE_MIGRATION_URL, name).toMatch(new RegExp(`^postgres://svc_${owner}_migrator:`));
      expect(roles, name).toContain(name === 'gateway' ? 'role svc_gateway' : 'svc_$service');
    }
    expect(services.postgres.volumes).toContain('./k8s/components/in-cluster-infra/postgres-roles.sh:/docker-entrypoint-initdb.d/10-roles.sh:ro');
    expect(roles).toMatch(/NOSUPERUSER NOCREATEDB NOCREATEROLE/);
  });

  it('gives the worker, where pack code runs, no Redis credentials', () => {
    expect(services['execution-worker'].environment.REDIS_URL).toBeUndefined();
  });

  it('gives each process only the secrets it reads', () => {
    for (const [name, service] of ours) {
      expect('SVC_JWT_SECRET' in service.environment, name).toBe(['gateway', 'identity'].includes(name));
      expect('SVC_INTERNAL_SECRET' in service.environment, name).toBe(name !== 'execution-worker');
      expect('SVC_SSH_ENCRYPTION_KEY' in service.environment, name).toBe(name === 'ssh');
    }
  });

  it('takes every value it interpolates from .env, listed in .env.example', () => {
    const example = new Set([...read('.env.example').matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    const missing = [...new Set(interpolated(read('docker-compose.yml')))].filter((name) => !example.has(name));
    expect(missing).toEqual([]);
  });

  it('marks every built-in secret default as local only', () => {
    const defaults = [...read('docker-compose.yml').matchAll(/\$\{(SVC_JWT_SECRET|SVC_INTERNAL_SECRET|POSTGRES_PASSWORD|REDIS_PASSWORD|RABBITMQ_PASSWORD|DB_[A-Z]+_PASSWORD):-([^}]*)\}/g)];
    expect(defaults.length).toBeGreaterThanOrEqual(11);
    for (const [, name, value] of defaults) expect(value, name).toMatch(/local-only/);
    // A key is base64, which has no room for the words: its default decodes to them.
    const [, sshKey] = /\$\{SVC_SSH_ENCRYPTION_KEY:-([^}]*)\}/.exec(read('docker-compose.yml')) ?? [];
    expect(Buffer.from(sshKey!, 'base64').toString()).toMatch(/local-only/);
  });

  it('starts MinIO and Prometheus only with their profiles', () => {
    for (const [name, profile] of Object.entries(OPTIONAL)) expect(services[name]?.profiles, name).toEqual([profile]);
  });

  it('serves every process its metrics on SVC_METRICS_PORT, and the monitoring profile scrapes each there', () => {
    const scrape = readYaml('deploy/prometheus/prometheus.yml');
    expect(services.prometheus.volumes).toContain('./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    const targets = scrape.scrape_configs.flatMap((job: any) => job.static_configs.flatMap((c: any) => c.targets as string[]));
    for (const { name } of fleet) {
      const port = services[name].environment.SVC_METRICS_PORT;
      expect(port, name).toMatch(/^\d+$/);
      expect(targets, name).toContain(`${name}:${port}`);
    }
    expect(targets).toHaveLength(fleet.length);
  });

  it('lets registry and dashboard keep files in the s3 profile bucket, which MinIO makes', () => {
    for (const name of ['registry', 'dashboard']) {
      for (const variable of ['BLOB_STORE_URL', 'BLOB_STORE_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
        expect(services[name].environment[variable], `${name}: ${variable}`).toBe(`\${${variable}:-}`);
      }
    }
    expect(services['minio-bucket'].entrypoint.join(' ')).toMatch(/mc mb --ignore-existing local\/svc-blobs$/);
    expect(services['minio-bucket'].depends_on.minio.condition).toBe('service_healthy');
    expect(read('.env.example')).toMatch(/BLOB_STORE_URL=s3:\/\/svc-blobs\//);
  });
});
