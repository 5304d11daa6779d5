import type { BlockList } from 'node:net';
import { ValidationError } from '@svc/core';
import { hostAddresses } from '@svc/egress';

export interface TargetPolicy {
  /** Private ranges an operator allows besides public addresses (`allowList` of `@svc/egress`). */
  allowed?: BlockList;
  /** Plain `http` URLs too (an operator's choice, for tests and private receivers); otherwise only `https`. */
  allowHttp: boolean;
}

const refuse = (issue: string) => new ValidationError(`The webhook URL ${issue}`, { field: 'url', issue });

/**
 * Checks an endpoint URL when it is registered: `https` (or `http` when the operator allows
 * it), no credentials in it, and a host that resolves to public addresses only (or to ranges
 * the operator allows). Delivery checks the address again as it connects (`egressFetch`), so a
 * name that resolves elsewhere later (DNS rebinding) reaches nothing either.
 */
export async function checkWebhookTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a URL');
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw refuse(policy.allowHttp ? 'must be http or https' : 'must be https');
  if (url.username || url.password) throw refuse('must not carry credentials');
  if (url.hash) throw refuse('must not have a fragment');
  const { addresses, refused } = await hostAddresses(url.hostname, policy.allowed);
  if (addresses.length === 0) throw refuse(`host ${url.hostname} does not resolve`);
  if (refused.length > 0) throw refuse('must resolve to public addresses only');
  return url;
}
