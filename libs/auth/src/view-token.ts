import { signedTokens } from './signed-token.js';

/**
 * How long a view token opens its dashboard's files. It is bound to the viewer's session (which
 * the gateway resolves on every file, so signing out ends it at once) and to one dashboard the
 * viewer may see (checked again on every file); its lifetime only bounds a copy of the URL that
 * leaks while that session lives. An hour lets a dashboard load its lazy chunks long after it
 * was mounted.
 */
export const VIEW_TOKEN_TTL_SECONDS = 3600;

/** The path under which files are read with a view token: `/api/v1/dashboard-views/{token}/bundle/{version}/{path}`. */
export const VIEW_TOKEN_PATH = '/api/v1/dashboard-views';

/** What a view token carries: whose session may read which dashboard's files, until when (seconds since the epoch). */
export interface ViewClaims {
  dashboardId: string;
  userId: string;
  sessionId: string;
  expiresAt: number;
}

const PURPOSE = 'svc dashboard view token';
const PREFIX = 'dvt_';

function claimsOf(body: string): ViewClaims | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const { d, u, s, e } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof d !== 'string' || typeof u !== 'string' || typeof s !== 'string' || typeof e !== 'number' || !Number.isSafeInteger(e)) return undefined;
  return { dashboardId: d, userId: u, sessionId: s, expiresAt: e };
}

/**
 * Signs and reads dashboard view tokens (`dvt_…`), the credential of a dashboard frame on the
 * dashboard origin: the dashboard service mints one for a signed-in viewer, the gateway resolves
 * its session to the viewer, and the dashboard service checks that it names the dashboard asked
 * for. The key is derived from the internal secret for this purpose only.
 *
 * @example
 *   const tokens = viewTokens(secret);
 *   const token = tokens.sign({ dashboardId, userId, sessionId, expiresAt: nowSeconds + VIEW_TOKEN_TTL_SECONDS });
 *   tokens.verify(token); // the claims; undefined when forged, malformed or expired
 */
export function viewTokens(secret: string) {
  const tokens = signedTokens({ secret, purpose: PURPOSE, prefix: PREFIX });
  return {
    sign({ dashboardId, userId, sessionId, expiresAt }: ViewClaims): string {
      return tokens.sign(JSON.stringify({ d: dashboardId, u: userId, s: sessionId, e: expiresAt }));
    },
    verify(token: string, now: Date = new Date()): ViewClaims | undefined {
      const body = tokens.verify(token);
      const claims = body === undefined ? undefined : claimsOf(body);
      return claims && claims.expiresAt * 1000 > now.getTime() ? claims : undefined;
    },
  };
}

export type ViewTokens = ReturnType<typeof viewTokens>;

/** The token of a view-token file path (`/api/v1/dashboard-views/{token}/…`), or undefined. */
export function viewTokenOfPath(path: string): string | undefined {
  if (!path.startsWith(`${VIEW_TOKEN_PATH}/`)) return undefined;
  const token = path.slice(VIEW_TOKEN_PATH.length + 1).split('/', 1)[0];
  return token || undefined;
}
