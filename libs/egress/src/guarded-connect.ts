import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { connect, isIP, type BlockList, type LookupFunction, type Socket } from 'node:net';
import { PermissionError } from '@svc/core';
import { isPublicAddress } from './address-guard.js';

/** A request or connection refused because of where it would go (403 `EGRESS_REFUSED`). */
export class EgressRefusedError extends PermissionError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details, { code: 'EGRESS_REFUSED' });
  }
}

/** Every address of a host name, as the system resolver gives them. Tests pass their own (DNS rebinding). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

const bare = (host: string) => host.replace(/^\[|\]$/g, '');

/** Throws when `host` is an IP address that is not allowed; a name is left to `guardedLookup`. */
export function refuseLiteral(host: string, allowed: BlockList | undefined): void {
  const literal = bare(host);
  if (isIP(literal) && !isPublicAddress(literal, allowed)) throw new EgressRefusedError(`${literal} is not a public address`, { host: literal });
}

/**
 * Resolves a host name and keeps only the addresses a connection may reach; fails when none is
 * left. Used as the connection's own `lookup`, so the address checked is the address connected
 * to: a name that resolves to a public address once and to 127.0.0.1 the next time (DNS
 * rebinding) gains nothing.
 */
export function guardedLookup(allowed: BlockList | undefined, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const usable = found.filter((entry) => isPublicAddress(entry.address, allowed) && (!options.family || entry.family === options.family));
        if (usable.length === 0) return callback(new EgressRefusedError(`${hostname} resolves to no public address`, { host: hostname }), '', 0);
        if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
        const [first] = usable as [LookupAddress];
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** The refusal for a socket connected to an address that is not allowed, checked once it is connected. */
export function refusedRemote(socket: Socket, allowed: BlockList | undefined): EgressRefusedError | undefined {
  const remote = socket.remoteAddress ?? '';
  return isPublicAddress(remote, allowed) ? undefined : new EgressRefusedError(`${remote} is not a public address`, { host: remote });
}

export interface HostAddresses {
  /** What the host is: itself for an IP address, what a name resolves to (none when it does not resolve). */
  addresses: string[];
  /** Those of `addresses` no connection may reach. */
  refused: string[];
}

/**
 * Where a host (a name or an IP address) leads, judged by the same rule as connections: for a
 * check when a destination is registered (a webhook URL, an SSH target), so that a private one
 * is refused with a clear answer then and not only when it is first used. The connection still
 * checks the address it connects to (`guardedConnect`, `egressFetch`).
 *
 * @example
 *   const { addresses, refused } = await hostAddresses('build.example.com', allowList(env.CIDRS));
 */
export async function hostAddresses(host: string, allowed?: BlockList, resolve: Resolver = systemResolver): Promise<HostAddresses> {
  const literal = bare(host);
  let addresses: string[];
  if (isIP(literal)) addresses = [literal];
  else addresses = await resolve(literal).then((found) => found.map((entry) => entry.address), () => []);
  return { addresses, refused: addresses.filter((address) => !isPublicAddress(address, allowed)) };
}

export interface GuardedConnectOptions {
  /** Private ranges an operator allows besides public addresses (`allowList`). */
  allowed?: BlockList;
  /** From the start to a connected socket. Default 10 s; past it the error's `code` is `ETIMEDOUT`. */
  timeoutMs?: number;
  resolve?: Resolver;
}

/**
 * A TCP connection made on someone else's behalf (an SSH target's), for protocols other than
 * HTTP, under `egressFetch`'s rule: a literal address is checked before connecting, a name is
 * resolved by the connection's own lookup, which keeps only allowed addresses (so the address
 * checked is the one connected to), and the remote address is checked again once connected. A
 * refused address is never connected to, so every refusal is the same `EgressRefusedError`,
 * whatever listens (or not) on the port. Resolves with the connected socket.
 *
 * @example
 *   const socket = await guardedConnect('build.example.com', 22, { allowed });
 */
export function guardedConnect(host: string, port: number, options: GuardedConnectOptions = {}): Promise<Socket> {
  const { allowed } = options;
  return new Promise((resolve, reject) => {
    try {
      refuseLiteral(host, allowed);
    } catch (err) {
      return reject(err);
    }
    const socket = connect({ host: bare(host), port, lookup: guardedLookup(allowed, options.resolve) });
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error(`No connection to ${host} in time`), { code: 'ETIMEDOUT' })), options.timeoutMs ?? 10_000);
    socket.once('error', fail);
    socket.once('connect', () => {
      const refused = refusedRemote(socket, allowed);
      if (refused) return fail(refused);
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}
