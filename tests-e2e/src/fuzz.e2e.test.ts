import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@svc/gateway';
import { adminToken, clientAddress, createApiKey, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call, type Reply } from './support/client.js';
import { installPack } from './support/execution.js';
import { MODES, type TestFleet } from './support/fleet.js';
import { startSweepFleet } from './support/sweep.js';
import { allowsReducedError, documentedCodes, listedStatuses, SchemaArbitraries } from './support/fuzz.js';
import { requestsFor, type Credential, type FuzzedRequest, type FuzzIds } from './support/fuzz-requests.js';
import { documentedOperations, type DocumentedOperation } from './support/openapi.js';

/** Requests per operation: a short run in `npm test`, 10,000 in `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
/** Only these operations (`METHOD /path`, comma-separated: the long run on a subset). */
const ONLY = process.env.FUZZ_OPERATIONS?.split(',').map((o) => o.trim());
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** What another tenant can read of its own: it must read the same after the fuzzing. */
const SNAPSHOT = ['/api/v1/auth/me', '/api/v1/account/api-keys', '/api/v1/account/organizations', '/api/v1/storage', '/api/v1/storage/notes', '/api/v1/packs', '/api/v1/webhooks', '/api/v1/schedules', '/api/v1/ssh/targets', '/api/v1/tasks', '/api/v1/dashboards'];

/** A request as a finding names it: the path, who, the headers, and the body's start and length. */
function named(request: FuzzedRequest | undefined): string {
  if (!request) return 'none';
  const { path, credential, options } = request;
  const raw = options.raw === undefined ? '' : String(options.raw);
  return `${options.method} ${path.slice(0, 300)} as ${credential}, headers ${JSON.stringify(options.headers).slice(0, 600)}, body (${raw.length} characters) ${raw.slice(0, 200)}`;
}

describe.each(MODES)('requests derived from the OpenAPI document (%s infrastructure)', (mode) => {
  const document = buildOpenApiDocument();
  const schemas = new SchemaArbitraries(document);
  const codes = documentedCodes(document);
  let fleet: TestFleet;
  let call: Call;
  let admin: string;
  let dev: TestUser;
  let apiKey: string;
  let bob: TestUser;
  let ids: FuzzIds;

  /** A fresh access token: a long run outlasts the 15 minutes one lives. */
  const signIn = async (user: TestUser) => (await call('/api/v1/auth/login', { body: { email: user.email, password: user.password }, headers: clientAddress() })).body.data.tokens.accessToken as string;
  const snapshotOf = async (user: TestUser) => {
    const token = await signIn(user);
    return Promise.all(SNAPSHOT.map(async (path) => [path, (await call(path, { token })).body?.data]));
  };

  beforeAll(async () => {
    fleet = await startSweepFleet(mode);
    call = client(fleet.url);
    admin = await adminToken(call);
    [dev, bob] = [await signUp(call, admin), await signUp(call, admin)];
    const org = await createOrganization(call, dev);
    const packId = await installPack(fleet.url, call, dev, { namespace: dev.slug, name: 'tools', commands: [{ name: 'echo' }] });
    const key = await createApiKey(call, dev, 'fuzz');
    apiKey = key.key;
    const task = (await call(`/api/v1/commands/${dev.slug}/echo?async=true`, { token: dev.token, body: { text: 'x' } })).body.data.task_id;
    const hook = (await call('/api/v1/webhooks', { token: dev.token, body: { url: 'http://127.0.0.1:9/hook', events: ['command.executed'] } })).body.data.id;
    const schedule = (await call('/api/v1/schedules', { token: dev.token, body: { command: `${dev.slug}.echo`, input: { text: 'x' }, cron: '0 0 1 1 *' } })).body.data.id;
    // Dev's own ids, by the name of the path parameter that takes them; `{id}` names several things.
    ids = {
      byName: {
        namespace: [dev.slug],
        name: ['echo'],
        pack: ['tools'],
        key: ['fuzz', 'notes'],
        org_id: [org.id],
        user_id: [dev.id],
        key_id: [key.id],
        pack_id: [packId],
        task_id: [task],
        id: [hook, schedule, dev.id],
        version: ['1.0.0'],
        path: ['main.js', 'index.html'],
      },
    };
    // Bob's things, which nothing of the fuzzing may reach.
    await createOrganization(call, bob);
    await createApiKey(call, bob, 'bob');
    expect((await call('/api/v1/storage/notes', { method: 'PUT', token: bob.token, body: { data: { text: 'bob' } } })).status).toBe(201);
    expect((await call('/api/v1/webhooks', { token: bob.token, body: { url: 'http://127.0.0.1:9/bob', events: ['command.executed'] } })).status).toBe(201);
    expect((await call('/api/v1/ssh/targets', { token: bob.token, body: { name: 'bob', host: 'bob.example.test', username: 'bob', auth_method: 'password', password: 'bob-password' } })).status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await fleet?.stop();
  });

  /** Dev's session and API key again, if a fuzzed request signed out or revoked them, or the token lapsed. */
  const restore = async () => {
    if ((await call('/api/v1/auth/me', { token: dev.token })).status === 401) dev.token = await signIn(dev);
    if ((await call('/api/v1/commands', { token: apiKey })).status === 401) apiKey = (await createApiKey(call, dev, 'fuzz')).key;
    if ((await call('/api/v1/auth/me', { token: admin })).status === 401) admin = await adminToken(call);
  };

  const tokenOf = (credential: Credential) => ({ session: dev.token, apiKey, admin, none: undefined, garbage: undefined })[credential];

  /** Why an answer breaks the contract, or undefined. */
  const problemOf = ({ method, template, operation }: DocumentedOperation, reply: Reply) => {
    if (reply.status >= 500 && !listedStatuses(operation).has(reply.status)) return `undocumented ${reply.status}`;
    if (reply.status < 400 || method === 'HEAD' || allowsReducedError(operation, reply.status)) return undefined;
    const error = reply.body?.error;
    // OAuth's endpoints answer RFC 6749's error body, and MCP JSON-RPC's; the document describes both.
    if (!template.startsWith('/api/')) return undefined;
    if (reply.body?.success !== false || typeof error?.code !== 'string') return `${reply.status} outside the error envelope`;
    if (!codes.has(error.code)) return `${reply.status} with an undocumented code ${error.code}`;
    return undefined;
  };

  it('answers every operation as documented: no undocumented 5xx, every error in the envelope with a documented code, nothing of another tenant changed', async () => {
    const before = await snapshotOf(bob);
    const findings: string[] = [];
    const counts: Record<string, number> = {};
    const operations = documentedOperations(document).filter(({ method, template }) => !ONLY || ONLY.includes(`${method} ${template}`));
    for (const documented of operations) {
      const { method, template } = documented;
      const key = `${method} ${template}`;
      counts[key] = 0;
      const property = fc.asyncProperty(requestsFor(documented, schemas, ids), async ({ path, options, credential }) => {
        counts[key]! += 1;
        const token = tokenOf(credential);
        const headers = { ...clientAddress(), ...options.headers };
        const reply = await call(path, { ...options, token, headers }).catch((err: Error) => {
          // fetch names the network failure in its cause: a connection the fleet dropped, say.
          throw new Error(`${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}`);
        });
        const problem = problemOf(documented, reply);
        if (problem) throw new Error(`${problem}: ${JSON.stringify(reply.body).slice(0, 300)}`);
      });
      const result = await fc.check(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
      // The long run reports as it goes, so that a run cut short still says how far it got.
      if (RUNS > 100) console.log(`fuzz (${mode}): ${key}: ${counts[key]} requests, ${result.failed ? 'a finding' : 'no finding'}`);
      if (result.failed) findings.push(`${key} (seed ${result.seed}, path ${result.counterexamplePath}): ${String(result.errorInstance).slice(0, 600)}\n  request: ${named(result.counterexample?.[0])}`);
      await restore();
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`fuzz (${mode}): ${operations.length} operations, ${total} requests, ${findings.length} findings`);
    expect(findings).toEqual([]);
    expect(await snapshotOf(bob)).toEqual(before);
  }, 3_600_000);
});
