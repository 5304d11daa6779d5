import type { Server } from 'node:https';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { signOAuthAccessToken } from '@svc/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { oneMode, startTestFleet, TEST_SECRETS, type TestFleet } from './support/fleet.js';
import { approveInBrowser, authorizeInBrowser, codeOf, selfSignedCertificate, serveClientDocument, TestOAuthClient } from './support/oauth.js';

const REDIRECT = 'http://127.0.0.1:43117/callback';
const clientMetadata = {
  client_name: 'E2E Agent',
  redirect_uris: [REDIRECT],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

describe.each(oneMode('real'))('OAuth 2.1 sign-in for MCP clients (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  let stranger: TestUser;
  let org: { id: string; slug: string };
  let documentServer: Awaited<ReturnType<typeof serveClientDocument>>;
  const mcpUrl = () => new URL(`${fleet.url}/mcp`);
  const postMcp = (token?: string) =>
    fetch(mcpUrl(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: ping });
  const oauthPost = (path: string, fields: Record<string, string>) =>
    fetch(`${fleet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  async function signIn(provider: TestOAuthClient, user: TestUser, tenantId: string) {
    const visit = await authorizeInBrowser(mcpUrl(), provider, user, tenantId);
    return { visit, mcp: await connected(provider) };
  }

  async function connected(provider: TestOAuthClient): Promise<Client> {
    const mcp = new Client({ name: 'e2e', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    return mcp;
  }

  beforeAll(async () => {
    const tls = selfSignedCertificate();
    documentServer = await serveClientDocument(tls, { ...clientMetadata, client_name: 'E2E Document Client' });
    fleet = await startTestFleet(mode, { oauthClientDocuments: { allowedCidrs: ['127.0.0.0/8'], ca: tls.cert } });
    call = client(fleet.url);
    const admin = await adminToken(call);
    [dev, stranger] = [await signUp(call, admin), await signUp(call, admin)];
    org = await createOrganization(call, dev);
    // Private to Dev's personal tenant: a token bound to his organization does not see it.
    await installPack(fleet.url, call, dev, { namespace: dev.slug, name: 'oauth-tools', visibility: 'private', commands: [{ name: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' } } } }] });
  });
  afterAll(async () => {
    await new Promise((resolve) => (documentServer?.server as Server | undefined)?.close(resolve) ?? resolve(undefined));
    await fleet?.stop();
  });

  it('answers a bare 401 with the challenge, and serves both metadata documents', async () => {
    const bare = await postMcp();
    expect(bare.status).toBe(401);
    const challenge = bare.headers.get('www-authenticate')!;
    expect(challenge).toBe(`Bearer resource_metadata="${fleet.url}/.well-known/oauth-protected-resource/mcp", scope="commands:execute"`);
    const resource = await (await fetch(`${fleet.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${fleet.url}/mcp`, authorization_servers: [fleet.url], scopes_supported: ['commands:execute'] });
    expect(await (await fetch(`${fleet.url}/.well-known/oauth-protected-resource`)).json()).toEqual(resource);
    const server = await (await fetch(`${fleet.url}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: fleet.url,
      authorization_endpoint: `${fleet.url}/oauth/authorize`,
      token_endpoint: `${fleet.url}/oauth/token`,
      registration_endpoint: `${fleet.url}/oauth/register`,
      revocation_endpoint: `${fleet.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
    // MCP clients in a browser page (the Inspector) call these from their own origin.
    for (const [path, method] of [['/.well-known/oauth-protected-resource/mcp', 'GET'], ['/.well-known/oauth-authorization-server', 'GET'], ['/oauth/register', 'POST'], ['/oauth/token', 'POST'], ['/oauth/revoke', 'POST']] as const) {
      const preflight = await fetch(`${fleet.url}${path}`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': method, 'access-control-request-headers': 'content-type, mcp-protocol-version' } });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe(method);
      expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type,MCP-Protocol-Version');
    }
    expect((await fetch(`${fleet.url}/.well-known/oauth-authorization-server`, { headers: { origin: 'http://localhost:6274' } })).headers.get('access-control-allow-origin')).toBe('*');
    // Nothing else of the API is served to other origins.
    expect((await fetch(`${fleet.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' } })).status).toBe(405);
    // A refused token is told so in the challenge.
    const refused = await postMcp('not-a-token');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('signs an SDK client in with dynamic registration and PKCE, runs tools, refreshes and revokes', async () => {
    const provider = new TestOAuthClient(REDIRECT, clientMetadata);
    const { visit, mcp } = await signIn(provider, dev, dev.tenantId);
    // Registered through the endpoint: a public client with its own id.
    expect(provider.clientInformation()).toMatchObject({ client_name: 'E2E Agent', token_endpoint_auth_method: 'none' });
    // The consent page named the client and its redirect host, offered Dev's tenants, under its own policy.
    expect(visit.signInPage.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(visit.consentHtml).toContain('E2E Agent');
    expect(visit.consentHtml).toContain('127.0.0.1:43117');
    expect(visit.consentHtml).toContain(dev.slug);
    expect(visit.consentHtml).toContain(org.slug);
    expect(visit.consentPage.headers.get('content-security-policy')).toContain('form-action \'self\' http://127.0.0.1:43117');
    expect(visit.cookie).toMatch(/^svc_oauth=/);

    const tokens = provider.tokens()!;
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'commands:execute', expires_in: 900 });
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toContain(`${dev.slug}__oauth-tools__echo`);
    const result = await mcp.callTool({ name: `${dev.slug}__oauth-tools__echo`, arguments: { text: 'over oauth' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).result).toEqual({ echoed: { text: 'over oauth' } });
    await mcp.close();

    // Refresh: the SDK trades the refresh token for a new pair; the old refresh token is used up.
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const renewed = provider.tokens()!;
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect(renewed.access_token).not.toBe(tokens.access_token);
    expect((await postMcp(renewed.access_token)).status).toBe(200);

    // The user sees the application among their authorizations.
    const listed = await call('/api/v1/account/authorizations', { token: dev.token });
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((a: { client_id: string }) => a.client_id === provider.clientInformation()!.client_id);
    expect(mine).toMatchObject({ client_name: 'E2E Agent', redirect_host: '127.0.0.1:43117', tenant: { id: dev.tenantId, slug: dev.slug }, scopes: ['commands:execute'], resource: `${fleet.url}/mcp`, revoked_at: null });

    // Revocation (RFC 7009) of the refresh token ends the access token at once.
    const revoked = await oauthPost('/oauth/revoke', { token: renewed.refresh_token!, token_type_hint: 'refresh_token', client_id: provider.clientInformation()!.client_id });
    expect(revoked.status).toBe(200);
    const after = await postMcp(renewed.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = await oauthPost('/oauth/token', { grant_type: 'refresh_token', refresh_token: renewed.refresh_token!, client_id: provider.clientInformation()!.client_id });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await call('/api/v1/account/authorizations', { token: dev.token })).body.data.map((a: { id: string }) => a.id)).not.toContain(mine.id);
  });

  it('binds a token to the tenant chosen on the consent page, and a reused refresh token revokes it', async () => {
    const provider = new TestOAuthClient(REDIRECT, clientMetadata);
    const { mcp } = await signIn(provider, dev, org.id);
    // The private pack is his personal tenant's: not a tool for the organization.
    expect((await mcp.listTools()).tools.map((t) => t.name)).not.toContain(`${dev.slug}__oauth-tools__echo`);
    await mcp.close();
    const first = provider.tokens()!;
    const listed = await call('/api/v1/account/authorizations', { token: dev.token });
    expect(listed.body.data.find((a: { client_id: string }) => a.client_id === provider.clientInformation()!.client_id)).toMatchObject({ tenant: { id: org.id, slug: org.slug } });

    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const second = provider.tokens()!;
    // The old refresh token again: a stolen copy. The whole authorization ends.
    const replay = await oauthPost('/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.clientInformation()!.client_id });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await postMcp(second.access_token)).status).toBe(401);
  });

  it('refuses a token for another resource, a platform access token, and a code for the wrong verifier', async () => {
    // Asked for another resource, the authorization server sends the client back with invalid_target.
    const elsewhere = new TestOAuthClient(REDIRECT, clientMetadata, { resource: new URL('https://elsewhere.example/mcp') });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: elsewhere });
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    const sentBack = await fetch(elsewhere.authorizationUrl!, { redirect: 'manual' });
    expect(sentBack.status).toBe(302);
    expect(new URL(sentBack.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');

    // A code presented with another PKCE verifier is refused, and stays good for the right one.
    const provider = new TestOAuthClient(REDIRECT, clientMetadata);
    const pending = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(pending)).rejects.toThrow(UnauthorizedError);
    const code = codeOf((await approveInBrowser(provider.authorizationUrl!, dev, { tenantId: dev.tenantId })).location, fleet.url);
    const wrongVerifier = await oauthPost('/oauth/token', { grant_type: 'authorization_code', code, code_verifier: 'w'.repeat(43), redirect_uri: REDIRECT, client_id: provider.clientInformation()!.client_id });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' });
    await pending.finishAuth(code);
    await (await connected(provider)).close();

    // A well-signed token of a live authorization, but minted for another audience, is refused.
    const grant = (await call('/api/v1/account/authorizations', { token: dev.token })).body.data.find((a: { client_id: string }) => a.client_id === provider.clientInformation()!.client_id);
    const claims = { sub: dev.id, gid: grant.id, tid: dev.tenantId, client_id: grant.client_id, scope: 'commands:execute' };
    const forOther = signOAuthAccessToken(claims, { secret: TEST_SECRETS.jwtSecret, issuer: fleet.url, audience: 'https://elsewhere.example/mcp' }, 300).token;
    const forUs = signOAuthAccessToken(claims, { secret: TEST_SECRETS.jwtSecret, issuer: fleet.url, audience: `${fleet.url}/mcp` }, 300).token;
    expect((await postMcp(forUs)).status).toBe(200);
    const refused = await postMcp(forOther);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // The platform's own access token is not an OAuth token for /mcp, nor the reverse.
    expect((await postMcp(dev.token)).status).toBe(401);
    expect((await call('/api/v1/auth/me', { token: provider.tokens()!.access_token })).status).toBe(401);

    // The user revokes the application from their account: its tokens stop at once.
    const deleted = await call(`/api/v1/account/authorizations/${grant.id}`, { method: 'DELETE', token: dev.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: grant.id, revoked_at: expect.any(String) });
    expect((await postMcp(provider.tokens()!.access_token)).status).toBe(401);
    expect((await call(`/api/v1/account/authorizations/${grant.id}`, { method: 'DELETE', token: dev.token })).status).toBe(404);
  });

  it('keeps one user\'s authorizations from another', async () => {
    const provider = new TestOAuthClient(REDIRECT, clientMetadata);
    const { mcp } = await signIn(provider, dev, dev.tenantId);
    await mcp.close();
    const grant = (await call('/api/v1/account/authorizations', { token: dev.token })).body.data.find((a: { client_id: string }) => a.client_id === provider.clientInformation()!.client_id);
    expect((await call('/api/v1/account/authorizations', { token: stranger.token })).body.data).toEqual([]);
    expect((await call(`/api/v1/account/authorizations/${grant.id}`, { method: 'DELETE', token: stranger.token })).status).toBe(404);
    expect((await postMcp(provider.tokens()!.access_token)).status).toBe(200);
    // A stranger's own authorization names only his tenant, and cannot pick Dev's.
    const theirs = new TestOAuthClient(REDIRECT, clientMetadata);
    const refused = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: theirs });
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(refused)).rejects.toThrow(UnauthorizedError);
    const page = await fetch(theirs.authorizationUrl!, { redirect: 'manual' });
    const request = /name="request" value="([^"]*)"/.exec(await page.text())![1]!;
    const signedIn = await fetch(`${fleet.url}/oauth/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ action: 'sign-in', request, email: stranger.email, password: stranger.password }).toString(),
    });
    const html = await signedIn.text();
    expect(html).not.toContain(dev.slug);
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)![1]!;
    const approve = await fetch(`${fleet.url}/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie },
      body: new URLSearchParams({ action: 'approve', request, csrf, tenant_id: dev.tenantId }).toString(),
    });
    expect(approve.status).toBe(400);
    // A page of another site cannot post the form, nor can one without the form's token.
    const crossSite = await fetch(`${fleet.url}/oauth/consent`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site', cookie }, body: new URLSearchParams({ action: 'approve', request, csrf, tenant_id: stranger.tenantId }).toString() });
    expect(crossSite.status).toBe(403);
    const noToken = await fetch(`${fleet.url}/oauth/consent`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie }, body: new URLSearchParams({ action: 'approve', request, tenant_id: stranger.tenantId }).toString() });
    expect(noToken.status).toBe(400);
  });

  it('denies when the user says no', async () => {
    const provider = new TestOAuthClient(REDIRECT, clientMetadata);
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    const visit = await approveInBrowser(provider.authorizationUrl!, dev, 'deny');
    expect(visit.location.origin + visit.location.pathname).toBe(REDIRECT);
    expect(visit.location.searchParams.get('error')).toBe('access_denied');
    expect(visit.location.searchParams.get('code')).toBeNull();
  });

  it('signs in a client identified by an https client ID metadata document, fetched through the egress guard', async () => {
    const provider = new TestOAuthClient(REDIRECT, { ...clientMetadata, client_name: 'ignored: the document says' }, { clientMetadataUrl: documentServer.url });
    const { visit, mcp } = await signIn(provider, dev, dev.tenantId);
    // No registration: the URL is the client id, and the page shows the document's name.
    expect(provider.clientInformation()!.client_id).toBe(documentServer.url);
    expect(visit.consentHtml).toContain('E2E Document Client');
    // Its name proves nothing; where its document is served from is shown beside it.
    expect(visit.consentHtml).toContain(`described by <span class="host">${new URL(documentServer.url).host}</span>`);
    expect(documentServer.fetched()).toBeGreaterThan(0);
    expect((await mcp.listTools()).tools.map((t) => t.name)).toContain(`${dev.slug}__oauth-tools__echo`);
    await mcp.close();
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const revoked = await oauthPost('/oauth/revoke', { token: provider.tokens()!.access_token, client_id: documentServer.url });
    expect(revoked.status).toBe(200);
    expect((await postMcp(provider.tokens()!.access_token)).status).toBe(401);
    // A document URL the platform may not fetch (another port, nothing there) is no client.
    const unknown = await fetch(`${fleet.url}/oauth/authorize?${new URLSearchParams({ client_id: 'https://127.0.0.1:1/client.json', response_type: 'code', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', redirect_uri: REDIRECT })}`, { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });
  });
});
