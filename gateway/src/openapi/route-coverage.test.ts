import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Router } from 'express';
import { createAdminService } from '@svc/admin';
import { billingConfigFromEnv, createBillingService, loadBillingEnv } from '@svc/billing';
import { createSshService } from '@svc/ssh';
import { createLogger } from '@svc/core';
import { createExecutionService, executionConfigFromEnv, loadExecutionEnv } from '@svc/execution';
import { createIdentityService, identityConfigFromEnv, loadIdentityEnv } from '@svc/identity';
import { componentSchemas, type OpenApiFragment } from '@svc/openapi';
import { createServiceApp, openInfrastructure, type Infrastructure } from '@svc/platform';
import { createRegistryService, registryConfigFromEnv } from '@svc/registry';
import { createStorageService, storageConfigFromEnv } from '@svc/storage';
import { createNotifyService, loadNotifySettings, notifyConfigFromEnv } from '@svc/notify';
import { createDashboardService, dashboardConfigFromEnv } from '@svc/dashboard';
import { StorageEntry, SVC_VERSION } from '@svc/contracts';
import { createGateway } from '../app.js';
import { testGatewaySettings } from '../testing/test-gateway.js';
import { ROUTES, type ServiceName } from '../routing/route-table.js';
import { buildOpenApiDocument, OPENAPI_FRAGMENTS, operationsOf, routeOf, schemesOf } from './document.js';
import { registeredRoutes, type RegisteredRoute } from './registered-routes.js';

const SECRET = 'route-coverage-secret-0123456789abcdef';
const log = createLogger({ service: 'route-coverage', level: 'error', silent: true });

/** `METHOD /template` of every operation a fragment describes. */
function described(fragment: OpenApiFragment): string[] {
  return operationsOf(fragment.paths).map(({ method, template }) => `${method.toUpperCase()} ${template}`);
}

/**
 * What an app answers, as `METHOD /template`. A catch-all route (`router.all`) stands for the
 * methods the document lists on its path that no other route of the app serves, and must
 * stand for at least one.
 */
function answered(routes: RegisteredRoute[], documented: string[]): string[] {
  const explicit = routes.filter((r) => r.method !== 'all').map((r) => `${r.method.toUpperCase()} ${r.path}`);
  const catchAll = routes.filter((r) => r.method === 'all').flatMap((r) => {
    const covered = documented.filter((op) => op.endsWith(` ${r.path}`) && !explicit.includes(op));
    return covered.length > 0 ? covered : [`ALL ${r.path}`];
  });
  return [...explicit, ...catchAll];
}

describe('the OpenAPI document against the routes the fleet registers', () => {
  let infra: Infrastructure;
  let dataDir: string;
  const routesOf = {} as Record<ServiceName | 'gateway', RegisteredRoute[]>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-route-coverage-'));
    // Routes do not depend on the infrastructure, so the embedded one serves for both modes.
    infra = await openInfrastructure({ SVC_DATA_DIR: dataDir, SVC_BUS_PREFIX: '', SVC_CACHE_PREFIX: 'svc:', LOG_LEVEL: 'error' }, log, { inMemory: true });
    const deps = { ...infra, log };
    const services: Record<ServiceName, { routes: Router[]; rootRoutes?: Router[] }> = {
      identity: createIdentityService({ ...deps, config: identityConfigFromEnv(loadIdentityEnv({ SVC_JWT_SECRET: SECRET, SVC_INTERNAL_SECRET: SECRET })) }),
      registry: createRegistryService({ ...deps, config: registryConfigFromEnv({ SVC_DATA_DIR: dataDir }) }),
      execution: createExecutionService({ ...deps, config: executionConfigFromEnv(loadExecutionEnv({ SVC_DATA_DIR: dataDir })) }),
      storage: createStorageService({ ...deps, config: { secretsKey: SECRET, ...storageConfigFromEnv({ SVC_STORAGE_SWEEP_SECONDS: 60 }) } }),
      admin: createAdminService({ ...deps, config: { auditKey: SECRET } }),
      billing: createBillingService({ ...deps, config: billingConfigFromEnv(loadBillingEnv({ SVC_INTERNAL_SECRET: SECRET })) }),
      notify: createNotifyService({ ...deps, config: notifyConfigFromEnv({ ...loadNotifySettings({}), SVC_DATA_DIR: dataDir }, true) }),
      dashboard: createDashboardService({ ...deps, config: dashboardConfigFromEnv({ SVC_DATA_DIR: dataDir, SVC_INTERNAL_SECRET: SECRET }) }),
      ssh: createSshService({ ...deps, config: { encryptionKey: Buffer.alloc(32, 7).toString('base64'), idleSeconds: 60 } }),
    };
    for (const [name, service] of Object.entries(services) as [ServiceName, (typeof services)[ServiceName]][]) {
      // The same app the fleet runs for each service: its routes under /api/v1, root routes at /.
      routesOf[name] = registeredRoutes(createServiceApp({ service: 'test', routes: service.routes, rootRoutes: service.rootRoutes, internalSecret: SECRET, log }));
    }
    const gateway = createGateway({ ...deps, ...testGatewaySettings(SECRET) });
    routesOf.gateway = registeredRoutes(gateway.app);
    await gateway.stop();
  });

  afterAll(async () => {
    await infra?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.each(OPENAPI_FRAGMENTS.map((f) => [f.service, f] as const))('describes exactly the routes %s registers', (service, fragment) => {
    const documented = described(fragment);
    const served = answered(routesOf[service as ServiceName | 'gateway'], documented);
    expect({ undocumented: served.filter((op) => !documented.includes(op)).sort(), notServed: documented.filter((op) => !served.includes(op)).sort() }).toEqual({
      undocumented: [],
      notServed: [],
    });
    expect(new Set(served).size, 'a route registered twice').toBe(served.length);
  });

  it('has the gateway send every documented service operation to the service that describes it', () => {
    const misrouted = OPENAPI_FRAGMENTS.filter((f) => f.service !== 'gateway').flatMap((fragment) =>
      operationsOf(fragment.paths)
        .map(({ method, template }) => ({ op: `${method.toUpperCase()} ${template}`, owner: fragment.service, routedTo: routeOf(method, template)?.service ?? 'nobody (404)' }))
        .filter((r) => r.routedTo !== r.owner),
    );
    expect(misrouted).toEqual([]);
  });

  it('uses every rule of the route table for some documented operation', () => {
    const used = new Set(operationsOf(buildOpenApiDocument().paths).map(({ method, template }) => routeOf(method, template)));
    expect(ROUTES.filter((rule) => !used.has(rule)).map((rule) => `${rule.methods?.join(',') ?? '*'} ${rule.path}`)).toEqual([]);
  });

  it('asks for the credentials the route table accepts, and for none on public routes', () => {
    const wrong = operationsOf(buildOpenApiDocument().paths).filter(({ method, template, operation }) => {
      const rule = routeOf(method, template);
      const allowed: string[] = rule ? schemesOf(rule.auth) : [];
      const asked = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      return asked.some((scheme) => !allowed.includes(scheme)) || allowed.length > 0 !== asked.length > 0;
    });
    expect(wrong.map(({ method, template }) => `${method.toUpperCase()} ${template}`)).toEqual([]);
  });

  it('gives every operation a unique operationId, a summary and the error body as its default answer', () => {
    const document = buildOpenApiDocument();
    const operations = operationsOf(document.paths).map((o) => o.operation);
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.filter((o) => !o.operationId || !o.summary || !o.responses?.default).map((o) => o.operationId)).toEqual([]);
    expect(document.info.version).toBe(SVC_VERSION);
  });

  it('refers only to component schemas it defines, and takes a contract two fragments carry as one schema', () => {
    const document = buildOpenApiDocument();
    const referred = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map(([, name]) => name!);
    expect(referred.filter((name) => !document.components?.schemas?.[name])).toEqual([]);
    const shared: OpenApiFragment = { service: 'storage', tags: [], paths: {}, schemas: componentSchemas(StorageEntry) };
    expect(() => buildOpenApiDocument([...OPENAPI_FRAGMENTS, shared])).not.toThrow();
    const different: OpenApiFragment = { ...shared, schemas: { StorageEntry: { type: 'string' } } };
    expect(() => buildOpenApiDocument([...OPENAPI_FRAGMENTS, different])).toThrow(/StorageEntry/);
  });
});
