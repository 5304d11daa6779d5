import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderOverlay } from './kustomize.js';
import { read, ROOT } from './repo.js';

const SCRIPT = 'k8s/scripts/create-secrets.sh';
const EXTERNAL = { REDIS_URL: 'rediss://:pw@redis.example.com:6380', AMQP_URL: 'amqps://svc:pw@mq.example.com:5671/svc', POSTGRES_HOST: 'db.example.com:5432' };

/** The script as an operator runs it, printing the Secrets (`--dry-run`: kubectl renders them, no cluster). */
function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('sh', [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  const secrets = result.status === 0 ? parseAllDocuments(result.stdout).map((d) => d.toJS()).filter(Boolean) : [];
  const data = (name: string) => Object.fromEntries(Object.entries<string>(secrets.find((s) => s.metadata.name === name)?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
  return { ...result, secrets, data };
}

/** Every Secret key a container of the rendered objects must find (optional references aside). */
function requiredSecretKeys(objects: any[]): string[] {
  const pods = objects.flatMap((o) => (o.spec?.template?.spec ? [o.spec.template.spec] : []));
  const refs = pods.flatMap((pod) => [...pod.containers, ...(pod.initContainers ?? [])].flatMap((c: any) => c.env ?? []).map((e: any) => e.valueFrom?.secretKeyRef).filter((r: any) => r && !r.optional));
  const keda = objects.filter((o) => o.kind === 'TriggerAuthentication').flatMap((o) => o.spec.secretTargetRef);
  return [...new Set([...refs, ...keda].map((r: any) => `${r.name}/${r.key}`))].sort();
}

const provided = (secrets: any[]) => secrets.flatMap((s) => Object.keys(s.data).map((key) => `${s.metadata.name}/${key}`));

describe(SCRIPT, () => {
  it('makes every Secret key the dev overlay reads, for the in-cluster infrastructure, with URLs that carry its passwords', () => {
    const { status, stderr, secrets, data } = run(['--namespace', 'svc-dev', '--in-cluster', '--dry-run']);
    expect(status, stderr).toBe(0);
    expect(requiredSecretKeys(renderOverlay('dev')).filter((key) => !provided(secrets).includes(key))).toEqual([]);
    expect(secrets.every((s) => s.metadata.namespace === 'svc-dev')).toBe(true);
    const shared = data('svc-secrets');
    expect(shared.REDIS_URL).toBe(`redis://:${shared.REDIS_PASSWORD}@redis:6379`);
    expect(shared.AMQP_URL).toBe(`amqp://svc:${shared.RABBITMQ_PASSWORD}@rabbitmq:5672`);
    expect(shared.SVC_JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(shared.SVC_INTERNAL_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(shared.SVC_JWT_SECRET).not.toBe(shared.SVC_INTERNAL_SECRET);
    expect(Buffer.from(shared.SVC_SSH_ENCRYPTION_KEY!, 'base64')).toHaveLength(32);
    const identity = data('svc-identity-db');
    expect(identity.DATABASE_URL).toBe(`postgres://svc_identity:${identity.PASSWORD}@postgres:5432/svc`);
    expect(identity.DATABASE_MIGRATION_URL).toBe(`postgres://svc_identity_migrator:${identity.PASSWORD}@postgres:5432/svc`);
    expect(data('svc-gateway-db').DATABASE_MIGRATION_URL).toBeUndefined();
  });

  it('makes every Secret key the prod overlay and its components read, from the URLs given, with a fresh password per service', () => {
    const { status, stderr, secrets, data } = run(['--namespace', 'svc', '--dry-run'], { ...EXTERNAL, SMTP_URL: 'smtp://relay.example.com:587' });
    expect(status, stderr).toBe(0);
    const objects = renderOverlay('prod', ['queue-autoscaling', 'monitoring', 'pack-egress', 'rabbitmq-cluster']);
    expect(requiredSecretKeys(objects).filter((key) => !provided(secrets).includes(key))).toEqual([]);
    expect(data('svc-secrets')).toMatchObject({ REDIS_URL: EXTERNAL.REDIS_URL, AMQP_URL: EXTERNAL.AMQP_URL, SMTP_URL: 'smtp://relay.example.com:587' });
    expect(data('svc-secrets').POSTGRES_PASSWORD).toBeUndefined();
    const passwords = secrets.filter((s) => s.metadata.name.endsWith('-db')).map((s) => Buffer.from(s.data.PASSWORD, 'base64').toString());
    expect(new Set(passwords).size).toBe(passwords.length);
    expect(data('svc-ssh-db').DATABASE_URL).toBe(`postgres://svc_ssh:${data('svc-ssh-db').PASSWORD}@db.example.com:5432/svc`);
  });

  it('makes a Secret for each service postgres-roles.sh makes roles for, and writes their passwords for it', () => {
    const roles = read('k8s/components/in-cluster-infra/postgres-roles.sh');
    const services = [...(/^for service in ([a-z -]+); do$/m.exec(roles)?.[1]?.split(' ') ?? []), 'gateway'];
    const dir = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
    try {
      const rolesEnv = join(dir, 'roles.env');
      const { status, secrets, data } = run(['--namespace', 'svc', '--dry-run', '--roles-env', rolesEnv], EXTERNAL);
      expect(status).toBe(0);
      expect(secrets.map((s) => s.metadata.name).filter((n) => n !== 'svc-secrets').sort()).toEqual(services.map((s) => `svc-${s}-db`).sort());
      const written = Object.fromEntries(readFileSync(rolesEnv, 'utf8').trim().split('\n').map((line) => line.split('=') as [string, string]));
      for (const service of services) expect(written[`DB_${service.toUpperCase()}_PASSWORD`], service).toBe(data(`svc-${service}-db`).PASSWORD);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run without a namespace, or without the URLs of infrastructure it does not make', () => {
    expect(run(['--dry-run']).status).toBe(2);
    const missing = run(['--namespace', 'svc', '--dry-run'], { REDIS_URL: EXTERNAL.REDIS_URL });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/set AMQP_URL POSTGRES_HOST/);
    expect(run(['--namespace', 'svc', '--bogus']).status).toBe(2);
  });
});
