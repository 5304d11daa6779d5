import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestGateway } from '../testing/test-gateway.js';

const SECRET = 'client-address-secret-0123456789abcdef';

/** `X-RateLimit-Remaining` of the access-code check (10 a minute per client address) for a request claiming to come from `forwardedFor`. */
async function remainingFor(url: string, forwardedFor: string): Promise<string | null> {
  const res = await fetch(`${url}/api/v1/access-codes/validate`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor }, body: '{}' });
  await res.arrayBuffer();
  return res.headers.get('x-ratelimit-remaining');
}

describe('the client address of per-address limits', () => {
  let direct: Awaited<ReturnType<typeof serveTestGateway>>;
  let behindProxy: Awaited<ReturnType<typeof serveTestGateway>>;

  beforeAll(async () => {
    direct = await serveTestGateway('client-address-direct', SECRET);
    behindProxy = await serveTestGateway('client-address-proxied', SECRET, { trustProxy: ['loopback'] });
  });
  afterAll(async () => {
    await direct?.stop();
    await behindProxy?.stop();
  });

  it('is the connection\'s by default: a loopback client cannot pick another key with X-Forwarded-For', async () => {
    const seen = [];
    for (let i = 1; i <= 3; i += 1) seen.push(await remainingFor(direct.url, `198.51.100.${i}`));
    expect(seen).toEqual(['9', '8', '7']);
  });

  it('is the one a trusted proxy names, when SVC_TRUST_PROXY names it', async () => {
    const seen = [];
    for (let i = 1; i <= 3; i += 1) seen.push(await remainingFor(behindProxy.url, `198.51.100.${i}`));
    expect(seen).toEqual(['9', '9', '9']);
  });
});
