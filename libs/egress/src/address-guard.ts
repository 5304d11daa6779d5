import { BlockList, isIP } from 'node:net';

/**
 * Where no request made on behalf of someone else may go: loopback, private (RFC 1918, ULA),
 * shared (CGNAT), link-local (the cloud metadata endpoints 169.254.169.254 and fd00:ec2::254
 * among them), multicast, reserved, documentation and unspecified addresses, and IPv6 forms
 * that carry an IPv4 address inside (mapped, NAT64, 6to4), which are judged by that address.
 */
const IPV4_DENIED: Array<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const IPV6_DENIED: Array<[string, number]> = [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];

const denied = new BlockList();
for (const [network, prefix] of IPV4_DENIED) denied.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_DENIED) denied.addSubnet(network, prefix, 'ipv6');

/** An IPv6 address in full: eight groups of four hex digits. */
function expand(address: string): string[] | undefined {
  let text = address.toLowerCase().replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => group.padStart(4, '0'));
}

/** The IPv4 address an IPv6 address stands for: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedIPv4(address: string): string | undefined {
  const groups = expand(address);
  if (!groups) return undefined;
  const v4 = (high: string, low: string) => [high.slice(0, 2), high.slice(2), low.slice(0, 2), low.slice(2)].map((hex) => parseInt(hex, 16)).join('.');
  const prefix = groups.slice(0, 6).join(':');
  if (prefix === '0000:0000:0000:0000:0000:ffff' || prefix === '0064:ff9b:0000:0000:0000:0000') return v4(groups[6]!, groups[7]!);
  if (groups[0] === '2002') return v4(groups[1]!, groups[2]!);
  return undefined;
}

/**
 * Addresses an operator lets requests reach besides the public ones (an internal API, say):
 * CIDRs such as `10.20.0.0/16` or `fd12::/48`.
 *
 * @example
 *   const allowed = allowList(['10.20.0.0/16']);
 */
export function allowList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', prefix] = cidr.trim().split('/');
    const family = isIP(network);
    if (!family) throw new Error(`"${cidr}" is not a CIDR such as 10.0.0.0/8`);
    list.addSubnet(network, Number(prefix ?? (family === 4 ? 32 : 128)), family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/**
 * Whether a request may connect to `address` (an IP address, as resolved or as connected to):
 * a public unicast address, or one in `allowed`. Anything that is not an IP address is refused.
 *
 * @example
 *   isPublicAddress('93.184.215.14'); // true
 *   isPublicAddress('169.254.169.254'); // false
 *   isPublicAddress('::ffff:127.0.0.1'); // false
 */
export function isPublicAddress(address: string, allowed?: BlockList): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  const family = isIP(bare);
  if (!family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowed?.check(bare, type)) return true;
  if (family === 6) {
    const inner = embeddedIPv4(bare);
    if (inner !== undefined) return isPublicAddress(inner, allowed);
  }
  return !denied.check(bare, type);
}
