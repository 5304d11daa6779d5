import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, clientAddress, createApiKey, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call, type CallOptions } from './support/client.js';
import { installPack } from './support/execution.js';
import { oneMode, type TestFleet } from './support/fleet.js';
import { startSweepFleet } from './support/sweep.js';
import { documentedOperations } from './support/openapi.js';

/** Path segments as sent (already percent-encoded where they need it). */
const SEGMENTS = ['%00', '%ZZ', '%C0%AF', 'a'.repeat(3000), '..%2F..%2Fetc%2Fpasswd', '%F0%9F%92%A9', '00000000-0000-0000-0000-000000000000', '-1', '1e400', "x'%20OR%201=1--"];
const QUERY_VALUES = ['%00', '%ZZ', 'abc', '-1', '1e400', '99999999999999999999', 'a'.repeat(3000)];
/** Bodies sent as JSON that no operation takes as they are. */
const RAW_BODIES: Array<string | Buffer> = ['{', '[]', 'null', '"text"', '123', '{"__proto__":{"admin":true}}', `${'['.repeat(5000)}${']'.repeat(5000)}`, Buffer.from('{"\xff\xfe":1}', 'latin1')];
/** Content types a valid JSON body is sent with, none of them quite `application/json`. */
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/merge-patch+json', ''];
/** Credentials that are not what they claim to be. */
const AUTHORIZATIONS = [
  `Bearer ${'x'.repeat(10_000)}`,
  `Bearer sk-svc-${'g'.repeat(64)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDAifQ.',
  'Basic dXNlcjpwYXNz',
  'Bearer',
  'Bearer a b',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** Content encodings a plain (not compressed) body is declared with. */
const ENCODINGS = ['gzip', 'deflate', 'br'];
/** Nesting no body may have (the limit is 64 levels), put in each field of a valid body in turn. */
const DEEP = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
/** What every string of a valid body is replaced with, one at a time. */
const STRINGS = ['a\u0000b', '\ud800', 'x'.repeat(100_000), '', ' '];
/** What every value of a valid body is replaced with, one at a time. */
const VALUES: unknown[] = [-1, 1e308, 1.5, true, [], {}, null];

/** Every copy of `value` with one leaf (or one object key) replaced by each of `replacements`. */
function mutations(value: unknown, replacements: (leaf: unknown) => unknown[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => mutations(item, replacements).map((m) => value.map((v, j) => (i === j ? m : v))));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.flatMap(([key, item]) => [
      ...mutations(item, replacements).map((m) => ({ ...value, [key]: m })),
      ...STRINGS.map((name) => Object.fromEntries(entries.map(([k, v]) => [k === key ? `${key}${name}` : k, v]))),
    ]);
  }
  return replacements(value);
}

describe.each(oneMode('real'))('hostile input (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let admin: string;
  let dev: TestUser;
  let orgId: string;
  let apiKey: string;
  /** A valid body for each operation that takes one, to be spoilt a leaf at a time. */
  let validBodies: Record<string, unknown>;

  beforeAll(async () => {
    fleet = await startSweepFleet(mode);
    call = client(fleet.url);
    admin = await adminToken(call);
    dev = await signUp(call, admin, { tier: 'pro' });
    orgId = (await createOrganization(call, dev)).id;
    await installPack(fleet.url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });
    apiKey = (await createApiKey(call, dev, 'sweep')).key;
    const password = { current_password: 'not-the-password', new_password: 'a-new-password-1' };
    validBodies = {
      'POST /api/v1/auth/register': { email: 'sweep@example.test', password: 'sweep-password-1', slug: 'sweep-user', access_code: 'SVC-AAAA-BBBB', name: 'Sweep' },
      'POST /api/v1/auth/login': { email: dev.email, password: 'not-the-password' },
      'POST /api/v1/auth/refresh': { refreshToken: 'not-a-token' },
      'POST /api/v1/auth/change-password': password,
      'POST /api/v1/auth/change-password/login': { email: dev.email, ...password },
      'PATCH /api/v1/users/me': { name: 'Ada' },
      'POST /api/v1/access-codes': { tier: 'pro', cohort: 'sweep', prefix: 'AB', count: 1, max_uses: 1 },
      'POST /api/v1/access-codes/validate': { code: 'SVC-AAAA-BBBB' },
      'POST /api/v1/account/developer-mode': { organization: { name: 'Sweep', slug: 'sweep-org' } },
      'POST /api/v1/account/api-keys': { name: 'key', scopes: ['commands:execute'] },
      'POST /api/v1/organizations': { name: 'Sweep', slug: 'sweep-org' },
      'POST /api/v1/organizations/{org_id}/invite': { email: 'invitee@example.test', role: 'member' },
      'POST /api/v1/packs/install': { name: `@${dev.slug}/tools`, version: '1.0.0' },
      'POST /api/v1/registry/command-names/check': { namespace: dev.slug, pack: 'tools', commands: ['echo', 'other'] },
      'POST /api/v1/registry/grants': { pack_namespace: dev.slug, pack_name: 'tools', grantee_tenant_id: dev.tenantId },
      'DELETE /api/v1/registry/grants': { pack_namespace: dev.slug, pack_name: 'tools', grantee_tenant_id: dev.tenantId },
      'POST /api/v1/commands/{namespace}/{name}': { text: 'hello', nested: { list: ['a'] } },
      'POST /mcp': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: `${dev.slug}__tools__echo`, arguments: { text: 'hello' } } },
      'PUT /api/v1/storage/{key}': { data: { text: 'hello', nested: { list: ['a'] } }, ttl: 60 },
      'POST /api/v1/schedules': { command: `${dev.slug}.echo`, input: { text: 'hello' }, cron: '0 * * * *', timezone: 'Europe/Berlin', overlap: 'skip', catch_up: 'latest', description: 'sweep' },
      'PATCH /api/v1/schedules/{id}': { cron: '30 6 * * 1-5', timezone: 'UTC', description: 'sweep' },
      'POST /api/v1/telemetry': { command: 'run', duration_ms: 1, success: true, os: 'linux', cli_version: '0.1.0' },
      'POST /api/v1/billing/checkout': { success_url: 'https://svc.example/ok', cancel_url: 'https://svc.example/no' },
      'POST /api/v1/billing/portal': { return_url: 'https://svc.example/account' },
      'POST /api/v1/registration/checkout': { ref: 'sweep-1' },
    };
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
  });

  it('answers whatever a client sends to any documented operation as documented, never with a server error', async () => {
    const problems: string[] = [];
    const send = async (method: string, path: string, options: CallOptions) => {
      const sent = `${method} ${path.slice(0, 100)} ${String(options.raw ?? JSON.stringify(options.body) ?? '').slice(0, 100)}`;
      try {
        const reply = await call(path, { method, ...options, headers: { ...clientAddress(), ...options.headers } });
        if (reply.status >= 500) problems.push(`${sent} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
        // Every refusal has a body a client can read (HEAD aside, which has none).
        else if (reply.status >= 400 && method !== 'HEAD' && (typeof reply.body !== 'object' || reply.body === null)) problems.push(`${sent} → ${reply.status} without a JSON body`);
      } catch (err) {
        problems.push(`${sent} → ${(err as Error).message.slice(0, 300)}`);
      }
    };
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const operations = documentedOperations();
    for (const { method, template, operation } of operations) {
      const asAdmin = template.startsWith('/api/v1/access-codes') && method !== 'POST' || template === '/api/v1/access-codes';
      const token = template === '/mcp' ? apiKey : asAdmin ? admin : dev.token;
      const path = template.replace('{namespace}', dev.slug).replace('{name}', 'echo').replace('{org_id}', orgId).replace('{key}', 'sweep').replace(/\{[^}]+\}/g, '00000000-0000-0000-0000-000000000000');
      const valid = validBodies[`${method} ${template}`];
      const body: CallOptions = valid === undefined ? { headers: json } : { body: valid, headers: json };
      for (const segment of SEGMENTS) {
        if (template.includes('{')) await send(method, template.replace(/\{[^}]+\}/g, segment), { token, ...body });
      }
      for (const { name, in: where } of (operation.parameters ?? []) as Array<{ in: string; name: string }>) {
        if (where === 'query') {
          for (const value of [...QUERY_VALUES, `1&${name}=2`]) await send(method, `${path}?${name}=${value}`, { token, ...body });
          await send(method, `${path}?${name}[a]=1`, { token, ...body });
        }
        if (where === 'cookie') {
          for (const value of [...QUERY_VALUES, '"', '=;=;']) await send(method, path, { ...body, headers: { ...json, cookie: `${name}=${value}` } });
        }
        if (where === 'header') {
          for (const value of ['x'.repeat(8000), '%00', 'ünïcode'.normalize('NFD').replace(/[^\x20-\x7e]/g, '?'), '']) await send(method, path, { token, ...body, headers: { ...json, [name]: value } });
        }
      }
      for (const authorization of AUTHORIZATIONS) await send(method, path, { ...body, headers: { ...json, authorization } });
      await send(method, path, { token, ...body, headers: { ...json, 'x-padding': 'x'.repeat(17 * 1024) } });
      for (const other of METHODS.filter((m) => !operations.some((o) => o.template === template && o.method === m))) {
        await send(other, path, { token, ...(other === 'GET' || other === 'HEAD' ? {} : body) });
      }
      if (operation.requestBody) {
        for (const raw of RAW_BODIES) await send(method, path, { token, raw, headers: json });
        for (const type of CONTENT_TYPES) await send(method, path, { token, raw: JSON.stringify(valid ?? {}), headers: { ...json, 'content-type': type } });
        for (const encoding of ENCODINGS) await send(method, path, { token, raw: JSON.stringify(valid ?? {}), headers: { ...json, 'content-encoding': encoding } });
        for (const key of Object.keys(valid ?? { data: 1 })) {
          await send(method, path, { token, raw: JSON.stringify({ ...(valid as object), [key]: '<deep>' }).replace('"<deep>"', DEEP), headers: json });
        }
        if (valid !== undefined) {
          for (const spoilt of mutations(valid, (leaf) => (typeof leaf === 'string' ? [...STRINGS, ...VALUES] : VALUES))) await send(method, path, { token, body: spoilt, headers: json });
        }
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
