import { describe, expect, it } from 'vitest';
import { checkedClientMetadata, clientNameOf, isClientDocumentUrl } from './oauth-client-rules.js';

const base = { redirect_uris: ['https://agent.example/callback'] };

describe('the rules every OAuth client is held to', () => {
  it('keeps a public client of the code flow, whatever authentication it asked for', () => {
    const kept = checkedClientMetadata({ ...base, client_name: '  Agent  ', token_endpoint_auth_method: 'client_secret_post', client_secret: 'x' } as never);
    expect(kept).toEqual({
      redirect_uris: base.redirect_uris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Agent',
      scope: 'commands:execute',
    });
  });

  it.each([
    ['http on another host', 'http://agent.example/callback'],
    ['a custom scheme', 'agent://callback'],
    ['javascript', 'javascript:alert(1)'],
    ['credentials', 'https://user:pass@agent.example/cb'],
    ['a fragment', 'https://agent.example/cb#x'],
  ])('refuses a redirect URI with %s', (_label, uri) => {
    expect(() => checkedClientMetadata({ redirect_uris: [uri] })).toThrow(/redirect_uris/);
  });

  it('allows http on a loopback address, for native clients', () => {
    for (const uri of ['http://127.0.0.1:5000/cb', 'http://localhost/cb', 'http://[::1]:8/cb']) expect(checkedClientMetadata({ redirect_uris: [uri] }).redirect_uris).toEqual([uri]);
  });

  it('refuses other grants, response types, scopes, names of several lines, and no or too many redirect URIs', () => {
    expect(() => checkedClientMetadata({ ...base, grant_types: ['client_credentials'] })).toThrow(/grant_types/);
    expect(() => checkedClientMetadata({ ...base, response_types: ['token'] })).toThrow(/response_types/);
    expect(() => checkedClientMetadata({ ...base, scope: 'commands:execute admin' })).toThrow(/scope/);
    expect(() => checkedClientMetadata({ ...base, client_name: 'two\nlines' })).toThrow(/client_name/);
    expect(() => checkedClientMetadata({ redirect_uris: [] })).toThrow(/redirect_uris/);
    expect(() => checkedClientMetadata({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) })).toThrow(/redirect_uris/);
  });

  it('names a client by its name, else by its redirect host', () => {
    expect(clientNameOf({ ...base, client_name: 'Agent' })).toBe('Agent');
    expect(clientNameOf(base)).toBe('agent.example');
  });

  it('takes https URLs with a path as client ID metadata documents', () => {
    expect(isClientDocumentUrl('https://agent.example/client.json')).toBe(true);
    expect(isClientDocumentUrl('https://agent.example/')).toBe(false);
    expect(isClientDocumentUrl('http://agent.example/client.json')).toBe(false);
    expect(isClientDocumentUrl('0b4a6c1e-7d0e-4f44-9a51-1f6a1b9d2c3e')).toBe(false);
  });
});
