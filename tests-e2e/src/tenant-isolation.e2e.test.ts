import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@svc/gateway';
import { adminToken, createApiKey, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call, type CallOptions } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { bundleOf, createDashboard, uploadBundle } from './support/dashboards.js';
import { MODES, type TestFleet } from './support/fleet.js';
import { SchemaArbitraries } from './support/fuzz.js';
import { documentedOperations } from './support/openapi.js';
import { startSweepFleet, SWEEP_WEBHOOK_SECRET } from './support/sweep.js';
import { authorizeInBrowser, TestOAuthClient } from './support/oauth.js';
import { uploadPackage } from './support/packs.js';
import { packageOf } from '@svc/pack-sdk/testing';

/** Written into Ada's resources, so that any answer to Bob that carries one of them shows. */
const SECRET = 'ada-secret-7f3c';
/**
 * Operations whose path names something of the caller's own, whoever else has one of that name
 * (a pack's secrets are each tenant's own: Bob's secrets of Ada's pack are his).
 */
const OWN_SPACE = [
  'GET /api/v1/namespaces/{namespace}/check',
  'GET /api/v1/storage/{key}',
  'PUT /api/v1/storage/{key}',
  'DELETE /api/v1/storage/{key}',
  'GET /api/v1/secrets/{namespace}/{pack}',
  'PUT /api/v1/secrets/{namespace}/{pack}/{name}',
  'DELETE /api/v1/secrets/{namespace}/{pack}/{name}',
];
/**
 * Operations whose id is itself the credential, public by the spec: a registration session is
 * read by whoever holds its id (the buyer's browser, before any account exists).
 */
const CAPABILITIES = ['GET /api/v1/registration/session/{session_id}'];
/** Body fields and query parameters that name something (an id, a namespace, a pack, a code). */
const ID_FIELD = /(?:^|_)ids?$|namespace|^pack(?:_name)?$|^access_code$|^code$/;

/**
 * Every operation whose JSON body has a field naming something, read from the document: each
 * must be given a body with Ada's ids below, so that a new one cannot join unnoticed.
 */
function operationsWithBodyIds(): string[] {
  const document = buildOpenApiDocument();
  const schemas = new SchemaArbitraries(document);
  return documentedOperations(document)
    .filter(({ operation }) => {
      const schema = (operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined)?.content?.['application/json']?.schema;
      return schema !== undefined && Object.keys(schemas.resolve(schema).properties ?? {}).some((field) => ID_FIELD.test(field));
    })
    .map(({ method, template }) => `${method} ${template}`);
}

describe.each(MODES)("one tenant's resources as another sees them (%s infrastructure)", (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let ada: TestUser;
  let bob: TestUser;
  let bobKey: string;
  let admin: string;
  /** Ada's ids, by the name of the path parameter that takes them. */
  let adas: Record<string, string>;
  /** `{id}` names an SSH target, except under `/webhooks` (Ada's webhook) and `/schedules` (her schedule). */
  let adaWebhookId: string;
  let adaScheduleId: string;
  /** Her invitation's id, which is the access code the invitee turns developer mode on with. */
  let adaInvite: string;

  /** `who` pays for Pro, as the processor's webhook tells billing, as customer `customer`. */
  async function pay(who: TestUser, customer: string): Promise<void> {
    const session = { id: `cs_test_${who.slug}`, object: 'checkout.session', client_reference_id: who.id, metadata: { user_id: who.id }, customer, subscription: `sub_${who.slug}`, customer_details: { email: who.email }, amount_total: 5000 };
    const payload = JSON.stringify({ id: `evt_${who.slug}`, object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), data: { object: session }, livemode: false });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SWEEP_WEBHOOK_SECRET });
    const reply = await call('/api/v1/billing/webhook', { raw: payload, method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': signature } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }

  beforeAll(async () => {
    fleet = await startSweepFleet(mode);
    call = client(fleet.url);
    admin = await adminToken(call);
    [ada, bob] = [await signUp(call, admin), await signUp(call, admin)];
    const org = await createOrganization(call, ada, `org-${SECRET}`);
    await createOrganization(call, bob);
    const packId = await installPack(fleet.url, call, ada, { namespace: ada.slug, name: 'vault', visibility: 'private', commands: [{ name: 'reveal' }] });
    const key = await createApiKey(call, ada, SECRET);
    const task = (await call(`/api/v1/commands/${ada.slug}/reveal?async=true`, { token: ada.token, body: { text: SECRET } })).body.data.task_id;
    expect((await pollTask(call, ada.token, task)).body.data.status).toBe('success');
    expect((await call('/api/v1/storage/notes', { method: 'PUT', token: ada.token, body: { data: { text: SECRET } } })).status).toBe(201);
    expect((await call(`/api/v1/secrets/${ada.slug}/vault/REVEAL`, { method: 'PUT', token: ada.token, body: { value: SECRET } })).status).toBe(201);
    const invite = await call(`/api/v1/organizations/${org.id}/invite`, { token: ada.token, body: { email: `${SECRET}@example.test` } });
    expect(invite.status).toBe(201);
    adaInvite = invite.body.data.invite.id;
    const target = await call('/api/v1/ssh/targets', { token: ada.token, body: { name: SECRET, host: `${SECRET}.example.test`, username: SECRET, auth_method: 'password', password: SECRET } });
    expect(target.status, JSON.stringify(target.body)).toBe(201);
    // Her sandbox holds her pack and ran it; Bob's runs, with no pack of hers in it.
    expect((await call('/api/v1/sandbox', { method: 'POST', token: ada.token })).status).toBe(201);
    const synced = await uploadPackage(fleet.url, ada.token, await packageOf({ namespace: ada.slug, name: 'vault', commands: [{ name: 'reveal' }] }), 'package', { method: 'PUT', path: '/api/v1/sandbox/packs' });
    expect(synced.status).toBe(201);
    expect((await call(`/api/v1/sandbox/commands/${ada.slug}/reveal`, { token: ada.token, body: { text: SECRET } })).status).toBe(200);
    expect((await call('/api/v1/sandbox', { method: 'POST', token: bob.token })).status).toBe(201);
    bobKey = (await createApiKey(call, bob, 'bob')).key;
    // Her webhook, with a delivery in its log, and her private dashboard with a version and a share link.
    const hook = await call('/api/v1/webhooks', { token: ada.token, body: { url: `http://127.0.0.1:9/${SECRET}`, events: ['command.executed'], description: SECRET } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    adaWebhookId = hook.body.data.id;
    expect((await call(`/api/v1/webhooks/${adaWebhookId}/ping`, { method: 'POST', token: ada.token })).status).toBeLessThan(300);
    const delivery = (await call(`/api/v1/webhooks/${adaWebhookId}/deliveries`, { token: ada.token })).body.data[0];
    const schedule = await call('/api/v1/schedules', { token: ada.token, body: { command: `${ada.slug}.reveal`, input: { text: SECRET }, cron: '0 0 1 1 *', description: SECRET } });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    adaScheduleId = schedule.body.data.id;
    const board = await createDashboard(call, ada.token, `@${ada.slug}`, `board-${ada.slug}`);
    const bundle = await bundleOf([{ name: 'main.js', content: `export function mount(el) { el.textContent = "${SECRET}"; }\nexport function unmount() {}\n` }]);
    expect((await uploadBundle(fleet.url, ada.token, board.id, bundle, { version: '1.0.0' })).status).toBe(201);
    const share = await call(`/api/v1/dashboards/${board.id}/shares`, { method: 'POST', token: ada.token, body: {} });
    expect(share.status).toBe(201);
    // An MCP client she authorized through OAuth for her organization.
    const redirect = 'http://127.0.0.1:43117/callback';
    await authorizeInBrowser(new URL(`${fleet.url}/mcp`), new TestOAuthClient(redirect, { client_name: `Agent ${SECRET}`, redirect_uris: [redirect], token_endpoint_auth_method: 'none' }), ada, org.id);
    const authorization = (await call('/api/v1/account/authorizations', { token: ada.token })).body.data[0];
    // Her organization's pack, granted to her own tenant; her paid subscription (a processor's
    // customer id marked with the secret); a registration she started; the access code she used.
    await installPack(fleet.url, call, ada, { namespace: org.slug, name: 'org-vault', visibility: 'organization', commands: [{ name: 'reveal-org' }] });
    const grant = { pack_namespace: org.slug, pack_name: 'org-vault', grantee_tenant_id: ada.tenantId };
    expect((await call('/api/v1/registry/grants', { token: ada.token, body: grant })).status).toBe(200);
    await pay(ada, `cus_${SECRET}`);
    const registration = await call('/api/v1/registration/checkout', { body: { ref: SECRET } });
    expect(registration.status, JSON.stringify(registration.body)).toBe(200);
    const code = (await call('/api/v1/access-codes', { token: admin })).body.data.find((c: { use_count: number }) => c.use_count > 0);
    adas = {
      authorization_id: authorization.id,
      org_id: org.id,
      user_id: ada.id,
      key_id: key.id,
      pack_id: packId,
      task_id: task,
      namespace: ada.slug,
      name: 'reveal',
      key: 'notes',
      pack: 'vault',
      id: target.body.id,
      delivery_id: delivery.id,
      dashboard_id: board.id,
      slug: board.slug,
      version: '1.0.0',
      path: 'main.js',
      share_id: share.body.data.id,
      session_id: registration.body.data.session_id,
      code_id: code.id,
      tenant_id: ada.tenantId,
      actor_id: ada.id,
      org_slug: org.slug,
    };
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
  });

  it("gives another tenant none of them through any documented operation, by session or API key, and changes none of them", async () => {
    const leaks: string[] = [];
    const bodies: Record<string, unknown> = {
      'POST /api/v1/organizations/{org_id}/invite': { email: 'bob-friend@example.test', role: 'admin' },
      'POST /api/v1/commands/{namespace}/{name}': { text: 'x' },
      'PUT /api/v1/storage/{key}': { data: { text: 'overwritten' } },
      'PUT /api/v1/secrets/{namespace}/{pack}/{name}': { value: 'overwritten' },
      'PUT /api/v1/ssh/targets/{id}': { port: 2222, password: 'overwritten' },
      'PATCH /api/v1/schedules/{id}': { description: 'overwritten', enabled: false },
      'POST /api/v1/registry/grants': { pack_namespace: adas.org_slug, pack_name: 'org-vault', grantee_tenant_id: bob.tenantId },
      'DELETE /api/v1/registry/grants': { pack_namespace: adas.org_slug, pack_name: 'org-vault', grantee_tenant_id: ada.tenantId },
      'POST /api/v1/registry/command-names/check': { namespace: ada.slug, pack: 'vault', commands: ['reveal'] },
      'POST /api/v1/account/developer-mode': { access_code: adaInvite },
      'POST /api/v1/auth/register': { email: `again-${bob.email}`, password: 'e2e-password-1', slug: `${bob.slug}-again`, access_code: adaInvite },
      'POST /api/v1/access-codes/validate': { code: adaInvite },
      'POST /api/v1/packs/install': { name: `@${ada.slug}/vault`, version: '1.0.0' },
      'POST /api/v1/sandbox/commands/{namespace}/{name}': { text: 'x' },
      'POST /api/v1/dashboards/{dashboard_id}/grant': { tenant_ids: [bob.tenantId] },
      'DELETE /api/v1/dashboards/{dashboard_id}/grant': { tenant_ids: [ada.tenantId] },
      'POST /api/v1/dashboards/{dashboard_id}/shares': {},
      'POST /mcp': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: `${ada.slug}__vault__reveal`, arguments: { text: 'x' } } },
    };
    expect(operationsWithBodyIds().filter((key) => !(key in bodies))).toEqual([]);
    for (const credential of ['session', 'API key'] as const) {
      for (const { method, template, operation } of documentedOperations()) {
        const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        const key = `${method} ${template}`;
        const touchesAda = names.length > 0 || key in bodies;
        if (!touchesAda && method !== 'GET') continue;
        const idOf = (name: string) => {
          if (name === 'id' && template.startsWith('/api/v1/webhooks')) return adaWebhookId;
          if (name === 'id' && template.startsWith('/api/v1/schedules')) return adaScheduleId;
          // A dashboard is read by its slug and deleted by its id.
          if (name === 'dashboard') return method === 'GET' ? adas.slug : adas.dashboard_id;
          return adas[name];
        };
        // Query parameters that name something get hers too: a list filtered by her ids shows nothing of hers.
        const query = ((operation.parameters ?? []) as Array<{ in: string; name: string }>)
          .filter((p) => p.in === 'query' && adas[p.name] !== undefined && ID_FIELD.test(p.name))
          .map((p) => `${p.name}=${encodeURIComponent(adas[p.name]!)}`);
        const path = names.reduce((p, name) => p.replace(`{${name}}`, encodeURIComponent(idOf(name) ?? name)), template) + (query.length ? `?${query.join('&')}` : '');
        const options: CallOptions = { method, token: credential === 'API key' ? bobKey : bob.token, headers: { accept: 'application/json, text/event-stream' } };
        if (bodies[key] !== undefined) options.body = bodies[key];
        const reply = await call(path, options);
        const text = JSON.stringify(reply.body ?? '');
        // What Bob sent himself (her organization's slug, say) may come back in a refusal's details.
        const echoed = Object.values((options.body ?? {}) as object).filter((v): v is string => typeof v === 'string' && v.includes(SECRET));
        if (echoed.reduce((t, value) => t.split(value).join(''), text).includes(SECRET)) leaks.push(`${key} by ${credential} → ${reply.status} shows Ada's data: ${text.slice(0, 200)}`);
        // Anything done with Ada's ids must be refused (MCP refuses inside a JSON-RPC answer).
        // Lists, public reads and storage keys, which name an entry of the caller's own, answer
        // without her data; her storage is checked as she left it below.
        const refused = reply.status >= 400 || (template === '/mcp' && reply.body?.error !== undefined);
        if (touchesAda && !refused && !OWN_SPACE.includes(key) && !CAPABILITIES.includes(key)) leaks.push(`${key} by ${credential} → ${reply.status}: ${text.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);

    // Everything of Ada's is as she left it.
    expect((await call(`/api/v1/organizations/${adas.org_id}/members`, { token: ada.token })).body.data).toHaveLength(1);
    expect((await call('/api/v1/account/api-keys', { token: ada.token })).body.data[0]).toMatchObject({ id: adas.key_id, revoked_at: null });
    expect((await call('/api/v1/storage/notes', { token: ada.token })).body.data.value).toEqual({ text: SECRET });
    expect((await call(`/api/v1/secrets/${ada.slug}/vault`, { token: ada.token })).body.data.secrets.map((s: { name: string }) => s.name)).toEqual(['REVEAL']);
    expect(await call(`/api/v1/ssh/targets/${adas.id}`, { token: ada.token })).toMatchObject({ status: 200, body: { name: SECRET, port: 22, has_credentials: true } });
    expect((await call(`/api/v1/tasks/${adas.task_id}`, { token: ada.token })).body.data).toMatchObject({ status: 'success', result: { echoed: { text: SECRET } } });
    expect((await call('/api/v1/packs', { token: ada.token })).body.data.packs).toEqual([expect.objectContaining({ name: 'org-vault', status: 'active' }), expect.objectContaining({ id: adas.pack_id, status: 'active' })]);
    expect((await call(`/api/v1/commands/${ada.slug}/reveal`, { token: ada.token, body: { text: 'still mine' } })).status).toBe(200);
    expect((await call('/api/v1/sandbox', { token: ada.token })).body.data).toMatchObject({ status: 'running', usage: { executions_this_month: 1 }, packs: [expect.objectContaining({ name: 'vault' })] });
    expect((await call(`/api/v1/webhooks/${adaWebhookId}`, { token: ada.token })).body.data).toMatchObject({ id: adaWebhookId, status: 'active', description: SECRET });
    expect((await call(`/api/v1/dashboards/${adas.slug}`, { token: ada.token })).body.data).toMatchObject({ id: adas.dashboard_id, visibility: 'private' });
    expect((await call(`/api/v1/dashboards/${adas.dashboard_id}/shares`, { token: ada.token })).body.data).toEqual([expect.objectContaining({ id: adas.share_id })]);
    expect((await call(`/api/v1/schedules/${adaScheduleId}`, { token: ada.token })).body.data).toMatchObject({ description: SECRET, enabled: true, last_task_id: null });
    expect((await call('/api/v1/account/authorizations', { token: ada.token })).body.data).toEqual([expect.objectContaining({ id: adas.authorization_id, client_name: `Agent ${SECRET}`, revoked_at: null })]);
    expect((await call('/api/v1/billing/status', { token: ada.token })).body.data).toMatchObject({ subscription_tier: 'pro', payment_customer_id: `cus_${SECRET}` });
    expect((await call('/api/v1/access-codes', { token: admin })).body.data).toContainEqual(expect.objectContaining({ id: adas.code_id, is_active: true }));
    // Her invitation still lets its invitee in: nobody else redeemed it.
    const invitee = await signUp(call, admin, { slug: SECRET });
    expect((await call('/api/v1/account/developer-mode', { token: invitee.token, body: { access_code: adaInvite } })).status).toBe(200);
  });
});
