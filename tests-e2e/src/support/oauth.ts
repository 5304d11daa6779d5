import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';
import type { TestUser } from './accounts.js';

/**
 * An MCP client's OAuth side as an application keeps it (client information, tokens, the PKCE
 * verifier), in memory. Instead of opening a browser it keeps the authorization URL, which the
 * test then visits as the user's browser would (`approveInBrowser`).
 */
export class TestOAuthClient implements OAuthClientProvider {
  authorizationUrl?: URL;
  private information?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier?: string;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    options: { clientMetadataUrl?: string; resource?: URL } = {},
  ) {
    this.clientMetadataUrl = options.clientMetadataUrl;
    // A client that asks for a resource of its own choosing rather than the one the metadata names.
    if (options.resource) this.validateResourceURL = async () => options.resource;
  }

  readonly clientMetadataUrl?: string;
  validateResourceURL?: (serverUrl: string | URL, resource?: string) => Promise<URL | undefined>;

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

/** The value of a hidden field of a page. */
function hidden(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no hidden ${name} in the page: ${html.slice(0, 500)}`);
  return match[1]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}

/** What a browser sends with a form of the page to its own origin. */
function formPost(fields: Record<string, string>, cookie?: string): RequestInit {
  return {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  };
}

export interface ConsentVisit {
  /** The sign-in page, then the consent page, as served. */
  signInPage: Response;
  signInHtml: string;
  consentPage: Response;
  consentHtml: string;
  /** `svc_oauth=…` */
  cookie: string;
  /** What approving (or denying) answered: a 303 to the client's redirect URI. */
  decision: Response;
  /** Where the browser was sent back to. */
  location: URL;
}

/**
 * Plays the user's browser on the consent page: opens the authorization URL, signs in with the
 * user's password, then approves for `tenantId` (or denies) and follows nothing further: the
 * redirect back to the client is returned.
 */
export async function approveInBrowser(authorizationUrl: URL, user: TestUser, choice: { tenantId: string } | 'deny'): Promise<ConsentVisit> {
  const signInPage = await fetch(authorizationUrl, { redirect: 'manual' });
  const signInHtml = await signInPage.text();
  expect(signInPage.status, signInHtml.slice(0, 500)).toBe(200);
  const consentUrl = new URL('/oauth/consent', authorizationUrl);
  const request = hidden(signInHtml, 'request');
  const consentPage = await fetch(consentUrl, formPost({ action: 'sign-in', request, email: user.email, password: user.password }));
  const consentHtml = await consentPage.text();
  expect(consentPage.status, consentHtml.slice(0, 500)).toBe(200);
  const cookie = consentPage.headers.getSetCookie().find((c) => c.startsWith('svc_oauth='))?.split(';')[0];
  expect(cookie).toBeDefined();
  const fields = { request: hidden(consentHtml, 'request'), csrf: hidden(consentHtml, 'csrf') };
  const decision = await fetch(consentUrl, formPost(choice === 'deny' ? { ...fields, action: 'deny' } : { ...fields, action: 'approve', tenant_id: choice.tenantId }, cookie));
  expect(decision.status, await decision.clone().text()).toBe(303);
  return { signInPage, signInHtml, consentPage, consentHtml, cookie: cookie!, decision, location: new URL(decision.headers.get('location')!) };
}

/** The code of a redirect back to the client, after checking its state and issuer. */
export function codeOf(location: URL, issuer: string): string {
  expect(location.searchParams.get('error'), location.href).toBeNull();
  expect(location.searchParams.get('iss')).toBe(issuer);
  return location.searchParams.get('code')!;
}

/**
 * The whole sign-in as an MCP application does it: a bare 401 and discovery, registration (or its
 * metadata document), the user's consent for `tenantId` in the browser, the code exchanged. The
 * provider then holds tokens; the consent visit is returned.
 */
export async function authorizeInBrowser(mcpUrl: URL, provider: TestOAuthClient, user: TestUser, tenantId: string): Promise<ConsentVisit> {
  const refused = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(refused)).rejects.toThrow(UnauthorizedError);
  expect(provider.authorizationUrl?.href.startsWith(`${mcpUrl.origin}/oauth/authorize?`)).toBe(true);
  const visit = await approveInBrowser(provider.authorizationUrl!, user, { tenantId });
  await refused.finishAuth(codeOf(visit.location, mcpUrl.origin));
  return visit;
}

/** A certificate and key for `127.0.0.1` and `localhost`, signed by themselves (openssl), valid a day. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An https server on loopback serving one client ID metadata document at `/client.json`, whose
 * `client_id` is its own URL: an MCP client that identifies itself by URL instead of registering.
 */
export async function serveClientDocument(tls: { cert: string; key: string }, metadata: Omit<OAuthClientMetadata, 'client_id'>): Promise<{ url: string; server: Server; fetched: () => number }> {
  let fetched = 0;
  let url = '';
  const server = createServer(tls, (req, res) => {
    if (req.url !== '/client.json') return void res.writeHead(404).end();
    fetched += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: url, ...metadata }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
  return { url, server, fetched: () => fetched };
}
