import { describe, expect, it } from 'vitest';
import { allowList } from '@svc/egress';
import { checkWebhookTarget } from './webhook-target.js';

const strict = { allowHttp: false };
const issueOf = (promise: Promise<unknown>) => promise.then(() => 'accepted', (err: { details: { issue: string } }) => err.details.issue);

describe('webhook endpoint URLs', () => {
  it('accepts https URLs of public addresses only, by default', async () => {
    expect((await checkWebhookTarget('https://93.184.215.14/hooks?x=1', strict)).href).toBe('https://93.184.215.14/hooks?x=1');
    expect(await issueOf(checkWebhookTarget('http://93.184.215.14/hooks', strict))).toBe('must be https');
    for (const url of ['https://127.0.0.1/x', 'https://localhost/x', 'https://10.1.2.3/x', 'https://192.168.0.1/x', 'https://169.254.169.254/x', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://100.64.0.1/x']) {
      expect(await issueOf(checkWebhookTarget(url, strict)), url).toBe('must resolve to public addresses only');
    }
    expect(await issueOf(checkWebhookTarget('https://user:pw@93.184.215.14/x', strict))).toBe('must not carry credentials');
  });

  it('lets an operator allow plain http and private ranges', async () => {
    const policy = { allowHttp: true, allowed: allowList(['127.0.0.0/8']) };
    expect((await checkWebhookTarget('http://127.0.0.1:9/x', policy)).host).toBe('127.0.0.1:9');
    expect(await issueOf(checkWebhookTarget('http://10.0.0.1/x', policy))).toBe('must resolve to public addresses only');
  });
});
