import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createApiKey, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { describedFetch } from './support/mcp.js';

describe.each(oneMode('real'))('the command-run budget of the free tier (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let publisher: TestUser;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    publisher = await signUp(call, await adminToken(call));
    await createOrganization(call, publisher);
    await installPack(fleet.url, call, publisher, { namespace: publisher.slug, name: 'tools', visibility: 'public', commands: [{ name: 'echo' }] });
  });
  afterAll(() => fleet?.stop());

  it('refuses the 6th run in an hour, counting REST runs and MCP tool calls together: a JSON-RPC result over MCP, 429 over REST', async () => {
    const free = await signUp(call, await adminToken(call), { tier: 'free' });
    const key = (await createApiKey(call, free, 'mcp')).key;
    const rest = () => call(`/api/v1/commands/${publisher.slug}/echo`, { token: free.token, body: { text: 'x' } });
    const tool = () =>
      describedFetch(`${fleet.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: `${publisher.slug}__tools__echo`, arguments: { text: 'x' } } }),
      });

    for (const run of [rest, tool, rest, tool, rest]) expect((await run()).status).toBe(200);

    // Over MCP the refusal is the tool call's answer in the protocol (the typed error result,
    // with retry_after), and the headers describe the command-run budget that refused it.
    const sixth = await tool();
    expect(sixth.status).toBe(200);
    expect(sixth.headers.get('x-ratelimit-limit')).toBe('5');
    expect(sixth.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(sixth.headers.get('x-ratelimit-reset')) - Date.now() / 1000).toBeGreaterThan(60);
    const answer = (await sixth.json()) as any;
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text' }] } });
    const refusal = JSON.parse(answer.result.content[0].text);
    expect(refusal).toEqual({ error: expect.stringContaining('limit'), type: 'rate_limit', code: 'RATE_LIMITED', retry_after: expect.any(Number), correlation_id: sixth.headers.get('x-request-id') });
    expect(refusal.retry_after).toBeGreaterThan(60);
    const seventh = await rest();
    expect(seventh.status).toBe(429);
    expect(seventh.body.error.code).toBe('RATE_LIMITED');
    expect(Number(seventh.headers.get('retry-after'))).toBeGreaterThan(60);
  });
});
