import { signedTokens } from '@svc/auth';

/** What a share link's token carries: the link's id and its expiry (seconds since the epoch, 0: never). */
export interface ShareClaims {
  shareId: string;
  expiresAt: number;
}

/**
 * Signs and reads share-link tokens: `dsh_<base64url of "id.expiry">.<HMAC-SHA256>`, under the
 * share links' own key (derived from the internal secret so that it signs nothing else). The
 * signature makes a token unforgeable and its expiry untouchable; the link's row (looked up by
 * id) makes it revocable.
 *
 * @example
 *   const tokens = shareTokens(secret);
 *   const token = tokens.sign({ shareId, expiresAt: 0 });
 *   tokens.verify(token); // { shareId, expiresAt: 0 }, or undefined when forged or malformed
 */
export function shareTokens(secret: string) {
  const tokens = signedTokens({ secret, purpose: 'svc dashboard share link', prefix: 'dsh_' });
  return {
    sign: ({ shareId, expiresAt }: ShareClaims): string => tokens.sign(`${shareId}.${expiresAt}`),
    verify(token: string): ShareClaims | undefined {
      const body = tokens.verify(token);
      if (body === undefined) return undefined;
      const [shareId, expiry] = body.split('.');
      const expiresAt = Number(expiry);
      return shareId && Number.isSafeInteger(expiresAt) ? { shareId, expiresAt } : undefined;
    },
  };
}

export type ShareTokens = ReturnType<typeof shareTokens>;
