import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'dsh_';
/** The share links' own key, derived from the internal secret so that it signs nothing else. */
const PURPOSE = 'svc dashboard share link';

/** What a share link's token carries: the link's id and its expiry (seconds since the epoch, 0: never). */
export interface ShareClaims {
  shareId: string;
  expiresAt: number;
}

/**
 * Signs and reads share-link tokens: `dsh_<base64url of "id.expiry">.<HMAC-SHA256>`. The
 * signature makes a token unforgeable and its expiry untouchable; the link's row (looked up by
 * id) makes it revocable.
 *
 * @example
 *   const tokens = shareTokens(secret);
 *   const token = tokens.sign({ shareId, expiresAt: 0 });
 *   tokens.verify(token); // { shareId, expiresAt: 0 }, or undefined when forged or malformed
 */
export function shareTokens(secret: string) {
  const key = createHmac('sha256', secret).update(PURPOSE).digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();
  return {
    sign({ shareId, expiresAt }: ShareClaims): string {
      const body = Buffer.from(`${shareId}.${expiresAt}`).toString('base64url');
      return `${PREFIX}${body}.${mac(body).toString('base64url')}`;
    },
    verify(token: string): ShareClaims | undefined {
      if (!token.startsWith(PREFIX)) return undefined;
      const [body, signature, ...rest] = token.slice(PREFIX.length).split('.');
      if (!body || !signature || rest.length > 0) return undefined;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const [shareId, expiry] = Buffer.from(body, 'base64url').toString().split('.');
      const expiresAt = Number(expiry);
      return shareId && Number.isSafeInteger(expiresAt) ? { shareId, expiresAt } : undefined;
    },
  };
}

export type ShareTokens = ReturnType<typeof shareTokens>;
