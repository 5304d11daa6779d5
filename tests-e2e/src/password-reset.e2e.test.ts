import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import { adminToken, clientAddress, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { mailsTo as mailsOf, resetLink as resetLinkOf } from './support/reset-mail.js';

const HOUR_MS = 3_600_000;

describe.each(oneMode('embedded'))('forgotten passwords, by e-mail through an SMTP relay (%s infrastructure)', (mode) => {
  let smtp: TestSmtpServer;
  let fleet: TestFleet;
  let call: Call;
  let admin: string;
  // Identity's clock: the expiry test moves it past a link's hour.
  let skewMs = 0;

  const mailsTo = (address: string) => mailsOf(smtp, address);
  const resetLink = (address: string, nth = 1) => resetLinkOf(smtp, address, nth);

  const requestReset = (email: string) => call('/api/v1/auth/password-reset', { body: { email }, headers: clientAddress() });
  const confirm = (token: string, password: string) => call('/api/v1/auth/password-reset/confirm', { body: { token, password }, headers: clientAddress() });

  async function signIn(user: TestUser, password: string) {
    return call('/api/v1/auth/login', { body: { email: user.email, password }, headers: clientAddress() });
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    fleet = await startTestFleet(mode, { smtpUrl: smtp.url, identityClock: () => new Date(Date.now() + skewMs) });
    call = client(fleet.url);
    admin = await adminToken(call);
  });

  afterAll(async () => {
    await fleet?.stop();
    await smtp?.close();
  });

  it('mails a one-time link to the console page; the new password ends every old session', async () => {
    const ada = await signUp(call, admin);
    const before = await signIn(ada, ada.password);
    const refreshToken = before.body.data.tokens.refreshToken as string;

    const requested = await requestReset(ada.email.toUpperCase());
    expect(requested.status, JSON.stringify(requested.body)).toBe(202);
    const link = await resetLink(ada.email);
    expect(`${link.origin}${link.pathname}`).toBe(`${fleet.url}/reset-password`);
    const token = link.searchParams.get('token')!;

    const confirmed = await confirm(token, 'chosen-after-forgetting');
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

    expect((await call('/api/v1/auth/me', { token: ada.token })).status).toBe(401);
    expect((await call('/api/v1/auth/refresh', { body: { refreshToken } })).status).toBe(401);
    expect((await signIn(ada, ada.password)).status).toBe(401);
    const after = await signIn(ada, 'chosen-after-forgetting');
    expect(after.status).toBe(200);
    expect((await call('/api/v1/auth/me', { token: after.body.data.tokens.accessToken })).status).toBe(200);

    const reused = await confirm(token, 'another-one-entirely');
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: 'RESET_TOKEN_INVALID', details: { reason: 'used' } });
    expect((await signIn(ada, 'chosen-after-forgetting')).status).toBe(200);
  });

  it('refuses a link past its hour', async () => {
    const bob = await signUp(call, admin);
    expect((await requestReset(bob.email)).status).toBe(202);
    const token = (await resetLink(bob.email)).searchParams.get('token')!;
    skewMs = HOUR_MS + 1000;
    try {
      const late = await confirm(token, 'too-late-for-this');
      expect(late.status).toBe(400);
      expect(late.body.error).toMatchObject({ code: 'RESET_TOKEN_INVALID', details: { reason: 'expired' } });
    } finally {
      skewMs = 0;
    }
    expect((await signIn(bob, bob.password)).status).toBe(200);
  });

  it('answers an address without an account as it answers one with, and sends nothing', async () => {
    const carol = await signUp(call, admin);
    const nobody = `nobody-${randomBytes(4).toString('hex')}@example.test`;
    const known = await requestReset(carol.email);
    const unknown = await requestReset(nobody);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await resetLink(carol.email);
    // Carol's link has arrived; one to nobody would have been sent beside it.
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(nobody)).toEqual([]);
  });

  it('refuses a malformed request and a weak password with the error body', async () => {
    const bad = await requestReset('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const dave = await signUp(call, admin);
    await requestReset(dave.email);
    const token = (await resetLink(dave.email)).searchParams.get('token')!;
    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'password' } });
    expect(JSON.stringify(weak.body)).not.toContain(token);
    // The link survives a refused password.
    expect((await confirm(token, 'long-enough-now')).status).toBe(200);
  });

  it('limits one client to 10 a minute over both endpoints, whatever the addresses', async () => {
    const from = clientAddress();
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await call('/api/v1/auth/password-reset', { body: { email: `client-${i}-${randomBytes(3).toString('hex')}@example.test` }, headers: from }));
    for (let i = 0; i < 5; i++) sent.push(await call('/api/v1/auth/password-reset/confirm', { body: { token: `guess-${i}`, password: 'a-guessed-password' }, headers: from }));
    expect(sent.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 400, 400, 400, 400, 400]);
    const limited = await call('/api/v1/auth/password-reset/confirm', { body: { token: 'guess-10', password: 'a-guessed-password' }, headers: from });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
  });

  it('limits the requests for one address, known or not', async () => {
    const erin = await signUp(call, admin);
    for (const address of [erin.email, `nobody-${randomBytes(4).toString('hex')}@example.test`]) {
      for (let i = 0; i < 5; i++) expect((await requestReset(address)).status).toBe(202);
      const limited = await requestReset(address);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
