import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowList, egressFetch, EgressRefusedError, guardedConnect, hostAddresses, isPublicAddress, type Resolver } from './index.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00:ec2::254', 'fc00::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', 'localhost', 'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('allows the ranges an operator lists', () => {
    const allowed = allowList(['10.20.0.0/16', 'fd12::/48']);
    expect(isPublicAddress('10.20.3.4', allowed)).toBe(true);
    expect(isPublicAddress('10.21.3.4', allowed)).toBe(false);
    expect(isPublicAddress('fd12::5', allowed)).toBe(true);
    expect(() => allowList(['nonsense/8'])).toThrow(/not a CIDR/);
  });
});

describe('egressFetch', () => {
  let server: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/moved') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.method}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['a loopback address', () => `http://127.0.0.1:${port}/`],
    ['a name that resolves to loopback', () => `http://localhost:${port}/`],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s without connecting', async (_label, url) => {
    const before = hits;
    await expect(egressFetch(url())).rejects.toBeInstanceOf(EgressRefusedError);
    expect(hits).toBe(before);
  });

  it('reaches an address the operator allowed, and hands back a redirect rather than following it', async () => {
    const allowed = allowList(['127.0.0.0/8']);
    expect(await egressFetch(`http://localhost:${port}/`, { method: 'post', body: 'x', allowed })).toMatchObject({ status: 200, body: 'hello POST' });
    expect(await egressFetch(`http://127.0.0.1:${port}/moved`, { allowed })).toMatchObject({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
  });

  it('refuses other schemes, credentials in the URL and unknown methods', async () => {
    await expect(egressFetch('file:///etc/passwd')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(egressFetch('http://user:pw@example.com/')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(egressFetch('http://example.com/', { method: 'CONNECT' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('hostAddresses', () => {
  it('judges a literal address as itself, and a name by every address it resolves to', async () => {
    expect(await hostAddresses('93.184.215.14')).toEqual({ addresses: ['93.184.215.14'], refused: [] });
    expect(await hostAddresses('[::1]')).toEqual({ addresses: ['::1'], refused: ['::1'] });
    const twoWays: Resolver = async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }];
    expect(await hostAddresses('mixed.example', undefined, twoWays)).toEqual({ addresses: ['93.184.215.14', '10.0.0.7'], refused: ['10.0.0.7'] });
    expect(await hostAddresses('mixed.example', allowList(['10.0.0.0/8']), twoWays)).toMatchObject({ refused: [] });
    const local = await hostAddresses('localhost');
    expect(local.addresses.length).toBeGreaterThan(0);
    expect(local.refused).toEqual(local.addresses);
  });

  it('answers no address for a name that does not resolve', async () => {
    expect(await hostAddresses('nowhere.invalid')).toEqual({ addresses: [], refused: [] });
  });
});

describe('guardedConnect', () => {
  let server: TcpServer;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createTcpServer((socket) => {
      connections += 1;
      // The client may hang up first: a reset here is not the test's failure.
      socket.on('error', () => {});
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the connection should have been refused'),
      (err: Error) => err,
    );

  it('refuses loopback, private, metadata and IPv6 loopback addresses, and names that resolve to them, without connecting', async () => {
    const before = connections;
    for (const host of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', '[::ffff:127.0.0.1]', 'localhost']) {
      expect(await refusal(guardedConnect(host, port)), host).toBeInstanceOf(EgressRefusedError);
    }
    expect(connections).toBe(before);
  });

  it('answers the same refusal whether something listens on the port or not', async () => {
    const open = await refusal(guardedConnect('127.0.0.1', port));
    const closed = await refusal(guardedConnect('127.0.0.1', 1));
    expect([closed.constructor, closed.message]).toEqual([open.constructor, open.message]);
  });

  it('connects to the address it checked: a name that resolved to a public address at registration and to loopback now (DNS rebinding) gains nothing', async () => {
    const answers = [[{ address: '93.184.215.14', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const rebinding: Resolver = async () => answers.shift() ?? [];
    expect((await hostAddresses('rebind.example', undefined, rebinding)).refused).toEqual([]);
    const before = connections;
    expect(await refusal(guardedConnect('rebind.example', port, { resolve: rebinding }))).toBeInstanceOf(EgressRefusedError);
    expect(connections).toBe(before);
  });

  it('connects where the operator allowed it, by address or by name', async () => {
    const allowed = allowList(['127.0.0.0/8']);
    for (const host of ['127.0.0.1', 'localhost']) {
      const socket = await guardedConnect(host, port, { allowed, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      expect(socket.remoteAddress).toBe('127.0.0.1');
      socket.destroy();
    }
    expect(await refusal(guardedConnect('127.0.0.1', 1, { allowed }))).toMatchObject({ code: 'ECONNREFUSED' });
  });
});
