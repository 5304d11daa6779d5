import type { BlockList } from 'node:net';
import { z } from 'zod';
import { parseInput } from '@svc/core';
import { egressFetch, EgressRefusedError } from '@svc/egress';
import type { Hooks } from '../runners/runner-process.js';
import type { PackManifests } from './pack-manifests.js';

/** Largest request body a pack may send, and response body it may read, through `ctx.fetch`. */
const FETCH_BODY_LIMIT_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

const FetchArgs = z.object({
  url: z.string().min(1).max(8192),
  method: z.string().max(16).optional(),
  headers: z.record(z.string().max(256), z.string().max(8192)).optional(),
  body: z.string().max(FETCH_BODY_LIMIT_BYTES).optional(),
});

export interface EgressSettings {
  /** Off: no pack gets `ctx.fetch`, whatever it declares. */
  enabled: boolean;
  /** Private ranges packs may reach besides public addresses. */
  allowed?: BlockList;
}

function hostAllowed(host: string, hosts: string[]): boolean {
  if (hosts.length === 0) return true;
  const name = host.toLowerCase();
  return hosts.some((pattern) => (pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern));
}

/**
 * `ctx.fetch` for pack code. A runner has no network of its own; a pack whose `pack.yaml`
 * declares `network.egress: true` may have the worker make HTTP(S) requests for it, to public
 * addresses only (`egressFetch` of `@svc/egress`) and to its listed `hosts` when it lists any.
 * The declaration is read from the unpacked `pack.yaml` once per version.
 */
export function egressHooks(settings: EgressSettings, manifests: PackManifests): Hooks {
  return {
    'net.fetch': async (call, args) => {
      if (!settings.enabled) throw new EgressRefusedError('Packs may not make outbound requests on this platform');
      const { network } = await manifests.of(call.packDir);
      if (!network.egress) throw new EgressRefusedError('This pack has no network access: its pack.yaml does not declare network.egress', { code: 'NETWORK_NOT_DECLARED' });
      const { url, method, headers, body } = parseInput(FetchArgs, args, 'ctx.fetch');
      const host = URL.canParse(url) ? new URL(url).hostname : '';
      if (!hostAllowed(host, network.hosts)) throw new EgressRefusedError(`${host} is not among the hosts this pack declares`, { host });
      return egressFetch(url, { method, headers, body, timeoutMs: FETCH_TIMEOUT_MS, maxResponseBytes: FETCH_BODY_LIMIT_BYTES, allowed: settings.allowed, signal: call.signal });
    },
  };
}
