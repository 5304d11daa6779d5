import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Strategy as JwtStrategy } from 'passport-jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, oauthTokenKey, signAccessToken, signOAuthAccessToken } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus } from '@svc/bus';
import { createCache, trackedReads } from '@svc/cache';
import { PRINCIPAL_RPC } from '@svc/contracts';
import { createLogger, errorHandler } from '@svc/core';
import { closeServer, listen } from '@svc/platform';
import { ApiKeyUsage } from './api-key-usage.js';
import { authenticator, bearerToken, createPassport } from './authenticate.js';
import { PrincipalResolver } from './principal-resolver.js';

const log = createLogger({ service: 'authenticate-test', silent: true });
const JWT_SECRET = 'authenticate-test-jwt-secret-0123456789abcdef';
const INTERNAL_SECRET = 'authenticate-test-internal-secret-0123456789';
const SESSION = randomUUID();
/** A session the remembering tests sign out of. */
const LATER_REVOKED = randomUUID();
const revoked = new Set<string>();
const API_KEY = `sk-svc-${'ab'.repeat(32)}`;
const user = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'ada' });
const GRANT = randomUUID();
const OAUTH = { issuer: 'https://svc.example.test', resource: 'https://svc.example.test/mcp' };
const oauthClaims = { sub: user.userId, gid: GRANT, tid: user.tenantId, client_id: 'client-1', scope: 'commands:execute' };
const CHALLENGE = 'Bearer resource_metadata="https://svc.example.test/.well-known/oauth-protected-resource/mcp", scope="commands:execute"';

/** An HS256 JWT made by hand, so that a test can leave out what the platform's signer always sets (`exp`). */
function hs256(claims: Record<string, unknown>, secret: string | Buffer = JWT_SECRET): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('the gateway authentication step', () => {
  let bus: Bus;
  let usage: ApiKeyUsage;
  let server: Server;
  let base: string;
  const token = () => signAccessToken({ sub: user.userId, sid: SESSION }, JWT_SECRET, 900).token;

  const get = async (path: string, authorization?: string) => {
    const res = await fetch(`${base}${path}`, { headers: authorization === undefined ? {} : { authorization } });
    return { status: res.status, body: (await res.json()) as any, challenge: res.headers.get('www-authenticate') };
  };

  beforeAll(async () => {
    bus = await createBus({ logger: log });
    const keyHash = createHash('sha256').update(API_KEY).digest('hex');
    await bus.respond(PRINCIPAL_RPC, async (question) => {
      if ('sessionId' in question) return { identity: (question.sessionId === SESSION || question.sessionId === LATER_REVOKED) && !revoked.has(question.sessionId) ? user : null };
      if ('oauthGrantId' in question) return { identity: question.oauthGrantId === GRANT ? { ...user, authKind: 'oauth' as const, sessionId: undefined, oauthGrantId: GRANT, scopes: ['commands:execute'] } : null };
      return { identity: question.apiKeyHash === keyHash ? { ...user, authKind: 'api_key' as const, sessionId: undefined, apiKeyId: 'key-1', scopes: ['commands:execute'] } : null };
    });
    const resolver = new PrincipalResolver(trackedReads(createCache(), { maxEntries: 10, ttlSeconds: 60, name: 'test' }), bus, log, INTERNAL_SECRET);
    usage = new ApiKeyUsage(bus, log, 3_600_000);
    const policies = authenticator(createPassport(JWT_SECRET, resolver, OAUTH), usage, OAUTH);
    const app = express();
    app.get('/jwt', policies('jwt'), (req, res) => {
      res.json({ kind: req.identity!.authKind });
    });
    app.get('/either', policies('jwt-or-key'), (req, res) => {
      res.json({ kind: req.identity!.authKind });
    });
    app.get('/mcp', policies('key-or-oauth'), (req, res) => {
      res.json({ kind: req.identity!.authKind });
    });
    app.use(errorHandler(log));
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await usage?.stop();
    await bus?.close();
  });

  it('accepts an access token that expires, and an API key where keys are taken', async () => {
    expect(await get('/jwt', `Bearer ${token()}`)).toMatchObject({ status: 200, body: { kind: 'jwt' } });
    expect(await get('/either', `bearer ${token()}`)).toMatchObject({ status: 200, body: { kind: 'jwt' } });
    expect(await get('/either', `Bearer ${API_KEY}`)).toMatchObject({ status: 200, body: { kind: 'api_key' } });
  });

  it('refuses an access token without exp, however well it is signed (401 AUTHENTICATION_FAILED)', async () => {
    const claims = { sub: user.userId, sid: SESSION, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE, iat: Math.floor(Date.now() / 1000) };
    expect(await get('/jwt', `Bearer ${hs256({ ...claims, exp: claims.iat + 60 })}`)).toMatchObject({ status: 200 });
    const forever = await get('/jwt', `Bearer ${hs256(claims)}`);
    expect(forever).toMatchObject({ status: 401, body: { error: { code: 'AUTHENTICATION_FAILED', message: 'Access token without an expiry' } } });
    expect((await get('/either', `Bearer ${hs256(claims)}`)).status).toBe(401);
  });

  it('accepts an OAuth token for the MCP resource, or an API key, where OAuth is taken', async () => {
    const oauth = signOAuthAccessToken(oauthClaims, { secret: JWT_SECRET, ...{ issuer: OAUTH.issuer, audience: OAUTH.resource } }, 300).token;
    expect(await get('/mcp', `Bearer ${oauth}`)).toMatchObject({ status: 200, body: { kind: 'oauth' } });
    expect(await get('/mcp', `Bearer ${API_KEY}`)).toMatchObject({ status: 200, body: { kind: 'api_key' } });
    // Nowhere else: its audience is not the platform's, nor its key.
    expect((await get('/either', `Bearer ${oauth}`)).status).toBe(401);
    expect((await get('/jwt', `Bearer ${oauth}`)).status).toBe(401);
  });

  it('challenges every refusal on the OAuth route as the MCP authorization spec asks', async () => {
    const settings = (audience: string, issuer = OAUTH.issuer) => ({ secret: JWT_SECRET, issuer, audience });
    expect(await get('/mcp')).toMatchObject({ status: 401, challenge: CHALLENGE, body: { error: { code: 'AUTHENTICATION_FAILED' } } });
    const refused = [
      signOAuthAccessToken(oauthClaims, settings('https://elsewhere.example/mcp'), 300).token,
      signOAuthAccessToken(oauthClaims, settings(OAUTH.resource, 'https://elsewhere.example'), 300).token,
      signOAuthAccessToken({ ...oauthClaims, gid: randomUUID() }, settings(OAUTH.resource), 300).token,
      signOAuthAccessToken(oauthClaims, { ...settings(OAUTH.resource), secret: `${JWT_SECRET}-other` }, 300).token,
      // Without an expiry, under the right key: it would never expire.
      hs256({ ...oauthClaims, iss: OAUTH.issuer, aud: OAUTH.resource }, oauthTokenKey(JWT_SECRET).export()),
      token(),
      `sk-svc-${'0'.repeat(64)}`,
    ];
    for (const credential of refused) {
      const reply = await get('/mcp', `Bearer ${credential}`);
      expect(reply.status, credential).toBe(401);
      expect(reply.challenge).toMatch(new RegExp(`^${CHALLENGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, error="invalid_token", error_description="[^"]+"$`));
    }
    expect((await get('/mcp', 'Basic dXNlcjpwYXNz')).challenge).toContain('error="invalid_token"');
  });

  it.each([
    ['two access tokens', () => `Bearer ${token()} ${token()}`],
    ['an access token and something else', () => `Bearer ${token()} x`],
    ['two tokens joined by a comma', () => `Bearer ${token()},${token()}`],
    ['two API keys', () => `Bearer ${API_KEY} ${API_KEY}`],
    ['an API key then an access token', () => `Bearer ${API_KEY} ${token()}`],
    ['two spaces before the token', () => `Bearer  ${token()}`],
    ['a second scheme', () => `Bearer ${token()} Basic dXNlcjpwYXNz`],
    ['no token', () => 'Bearer'],
    ['another scheme', () => 'Basic dXNlcjpwYXNz'],
  ])('accepts exactly one bearer token per header: refuses %s (401)', async (_label, header) => {
    for (const path of ['/jwt', '/either', '/mcp']) {
      const reply = await get(path, header());
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(401);
      expect(reply.body.error.code).toBe('AUTHENTICATION_FAILED');
    }
  });

  describe('a token verified once', () => {
    /** passport-jwt's verifier (jsonwebtoken's decoding and HMAC), which a remembered token skips. */
    const verifier = () => vi.spyOn(JwtStrategy as unknown as { JwtVerifier: (...args: unknown[]) => void }, 'JwtVerifier');
    afterEach(() => {
      vi.restoreAllMocks();
      vi.useRealTimers();
    });

    it('is not verified again on the next requests, and its session is still resolved on each', async () => {
      const spy = verifier();
      const once = signAccessToken({ sub: user.userId, sid: LATER_REVOKED }, JWT_SECRET, 900).token;
      for (let i = 0; i < 3; i++) expect(await get('/jwt', `Bearer ${once}`)).toMatchObject({ status: 200, body: { kind: 'jwt' } });
      expect(spy).toHaveBeenCalledTimes(1);
      revoked.add(LATER_REVOKED);
      expect(await get('/jwt', `Bearer ${once}`)).toMatchObject({ status: 401, body: { error: { code: 'AUTHENTICATION_FAILED', message: 'Session has been revoked' } } });
      expect(spy).toHaveBeenCalledTimes(1);
    });

    it('is refused once it expires, as an expired token', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const short = signAccessToken({ sub: user.userId, sid: SESSION }, JWT_SECRET, 60).token;
      expect((await get('/jwt', `Bearer ${short}`)).status).toBe(200);
      vi.setSystemTime(Date.now() + 61_000);
      expect(await get('/jwt', `Bearer ${short}`)).toMatchObject({ status: 401, body: { error: { message: 'Access token expired' } } });
    });

    it('vouches for no other text: the same token altered, or under another audience, is refused', async () => {
      const genuine = token();
      expect((await get('/jwt', `Bearer ${genuine}`)).status).toBe(200);
      const [header, claims, signature] = genuine.split('.');
      const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims!, 'base64url').toString()), sub: randomUUID() })).toString('base64url');
      expect((await get('/jwt', `Bearer ${header}.${other}.${signature}`)).status).toBe(401);
      expect((await get('/jwt', `Bearer ${genuine.slice(0, -2)}xx`)).status).toBe(401);
      // Remembered by the access-token strategy, it is still no OAuth token.
      expect((await get('/mcp', `Bearer ${genuine}`)).status).toBe(401);
    });
  });

  it('reads the token of a header as RFC 6750 writes it, and nothing else', () => {
    expect(bearerToken('Bearer abc.DEF-_~+/=')).toBe('abc.DEF-_~+/=');
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
