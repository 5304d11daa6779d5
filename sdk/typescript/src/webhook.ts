export interface VerifyWebhookOptions {
  /** How old (or how far in the future) a signature's time may be, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). */
  now?: number;
}

const encoder = new TextEncoder();

/**
 * Whether a webhook delivery is the platform's: `header` is its `Svc-Signature`
 * (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`), `rawBody` the body exactly as
 * received (not parsed and re-serialized). Old or future times are refused, so a captured
 * delivery cannot be replayed later. Web Crypto only: the same in Node and in browsers.
 *
 * @example
 *   app.post('/hooks', express.text({ type: '*\/*' }), async (req, res) => {
 *     if (!(await verifyWebhook(secret, req.get('svc-signature') ?? '', req.body))) return res.sendStatus(400);
 *     …
 *   });
 */
export async function verifyWebhook(secret: string, header: string | null | undefined, rawBody: string | Uint8Array, options: VerifyWebhookOptions = {}): Promise<boolean> {
  if (!header || !secret) return false;
  const parts = new Map(header.split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  }));
  const t = parts.get('t') ?? '';
  const given = hexBytes(parts.get('v1') ?? '');
  if (!/^\d+$/.test(t) || !given) return false;
  const now = (options.now ?? Date.now()) / 1000;
  if (Math.abs(now - Number(t)) > (options.toleranceSeconds ?? 300)) return false;
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return constantTimeEqual(given, expected);
}

function hexBytes(hex: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
}

/** Compares every byte whatever the first difference, so timing tells nothing about the digest. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
