import { describe, expect, it } from 'vitest';
import { renderOverlay } from './kustomize.js';
import { read } from './repo.js';
import { schemaErrors } from './schemas.js';
import { parse } from 'yaml';

describe('the Ingress of the prod overlay', () => {
  const objects = renderOverlay('prod');
  const ingress = objects.find((o) => o.kind === 'Ingress');
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'svc-config').data;
  const gateway = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'gateway');
  const backendOf = (host: string) => ingress.spec.rules.find((r: any) => r.host === host)?.http.paths[0].backend.service;

  it('routes the API origin to the gateway and the dashboard origin, a host of its own, to its dashboard port', () => {
    const api = new URL(config.SVC_PUBLIC_URL).host;
    const dashboard = new URL(config.SVC_DASHBOARD_ORIGIN).host;
    expect(api).not.toBe(dashboard);
    expect(ingress.spec.rules.map((r: any) => r.host).sort()).toEqual([api, dashboard].sort());
    expect(backendOf(api)).toEqual({ name: 'gateway', port: { name: 'http' } });
    expect(backendOf(dashboard)).toEqual({ name: 'gateway', port: { name: 'dashboard' } });
    for (const { port } of [backendOf(api), backendOf(dashboard)]) expect(gateway.spec.ports.map((p: any) => p.name)).toContain(port.name);
  });

  it('serves both hosts over TLS from certificates cert-manager issues, the public origins being https', () => {
    expect(ingress.metadata.annotations['cert-manager.io/cluster-issuer']).toBeTruthy();
    const hosts = ingress.spec.rules.map((r: any) => r.host);
    for (const host of hosts) {
      const tls = ingress.spec.tls.filter((t: any) => t.hosts.includes(host));
      expect(tls, host).toHaveLength(1);
      expect(tls[0].secretName, host).toBeTruthy();
    }
    expect(new Set(ingress.spec.tls.map((t: any) => t.secretName)).size).toBe(ingress.spec.tls.length);
    expect(config.SVC_PUBLIC_URL).toMatch(/^https:\/\//);
    expect(config.SVC_DASHBOARD_ORIGIN).toMatch(/^https:\/\//);
  });

  it('names a ClusterIssuer the k8s README shows how to make, valid by cert-manager\'s schema', async () => {
    const readme = read('k8s/README.md');
    const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!)).find((doc) => doc?.kind === 'ClusterIssuer');
    expect(block?.metadata.name).toBe(ingress.metadata.annotations['cert-manager.io/cluster-issuer']);
    expect(await schemaErrors(block)).toBe('');
    // Its HTTP-01 solver answers through the same ingress class.
    expect(block.spec.acme.solvers[0].http01.ingress.ingressClassName).toBe(ingress.spec.ingressClassName);
  });
});
