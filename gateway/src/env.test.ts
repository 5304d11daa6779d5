import { describe, expect, it } from 'vitest';
import { dashboardListenerPort, loadGatewayEnv } from './env.js';

const SECRETS = { SVC_JWT_SECRET: 'j'.repeat(32), SVC_INTERNAL_SECRET: 'i'.repeat(32) };
const load = (env: Record<string, string>) => loadGatewayEnv({ ...SECRETS, ...env });

describe('the gateway environment', () => {
  it('trusts no proxy unless SVC_TRUST_PROXY names the hops', () => {
    expect(load({}).SVC_TRUST_PROXY).toBe(false);
    for (const off of ['false', 'off', '0']) expect(load({ SVC_TRUST_PROXY: off }).SVC_TRUST_PROXY, off).toBe(false);
    expect(load({ SVC_TRUST_PROXY: '1' }).SVC_TRUST_PROXY).toBe(1);
    expect(load({ SVC_TRUST_PROXY: 'loopback, linklocal, uniquelocal' }).SVC_TRUST_PROXY).toEqual(['loopback', 'linklocal', 'uniquelocal']);
    expect(load({ SVC_TRUST_PROXY: '10.0.0.0/8,192.168.1.7,fd00::/8' }).SVC_TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
  });

  it('refuses to trust every hop, and names what it cannot read', () => {
    expect(() => load({ SVC_TRUST_PROXY: 'true' })).toThrow(/SVC_TRUST_PROXY: .*not true/);
    expect(() => load({ SVC_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/not 10\.0\.0\.0\/33/);
    expect(() => load({ SVC_TRUST_PROXY: 'loopback, proxy.example.com' })).toThrow(/not proxy\.example\.com/);
  });

  it('opens the dashboard origin on 8180 by default, on a free port beside a free PORT, or not at all', () => {
    expect(dashboardListenerPort(load({}))).toBe(8180);
    expect(dashboardListenerPort(load({ PORT: '0' }))).toBe(0);
    expect(dashboardListenerPort(load({ PORT: '0', SVC_DASHBOARD_ORIGIN_PORT: '9180' }))).toBe(9180);
    expect(dashboardListenerPort(load({ SVC_DASHBOARD_ORIGIN_PORT: 'off' }))).toBeUndefined();
    expect(() => load({ SVC_DASHBOARD_ORIGIN_PORT: 'on' })).toThrow(/SVC_DASHBOARD_ORIGIN_PORT/);
  });
});
