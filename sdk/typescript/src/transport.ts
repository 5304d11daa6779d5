import { errorOfResponse, NetworkError, retryAfterSeconds, type SvcError } from './errors.js';
import type { Session } from './session.js';

export interface RetryInfo {
  attempt: number;
  method: string;
  url: string;
  /** The status that is retried, or 0 when no answer came. */
  status: number;
  waitMs: number;
  /** The answer being retried, as the error it would be (its message names a rate limit, its tier, when it resets); absent when no answer came. */
  error?: SvcError;
}

export interface RetryPolicy {
  /** Retries of one request at most (default 3). */
  maxRetries: number;
  /** The longest wait the client accepts for one retry, `Retry-After` included (default 60 s); a longer one is answered as is. */
  maxWaitMs: number;
  /** Told of each retry before its wait (logging). */
  onRetry?: (info: RetryInfo) => void;
}

/** Sign-in paths: sent without credentials, and a 401 from them means wrong credentials, not an expired token. */
const PUBLIC_AUTH = /\/api\/v1\/auth\/(login|register|refresh|refresh-cookie|change-password\/login)$/;

/** Safe to send twice: methods HTTP defines as idempotent, or a request carrying an `Idempotency-Key`. */
function idempotent(request: Request): boolean {
  return ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(request.method) || request.headers.has('idempotency-key');
}

function backoffMs(attempt: number): number {
  return Math.min(8000, 250 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The `fetch` every request of the client goes through: it adds the credentials, renews an
 * expired access token once and sends again, waits out a 429 as `Retry-After` says (any method:
 * the platform refused it before doing anything), and retries 503, 504 and lost connections
 * only for requests that are safe to send twice.
 */
export function createTransport(session: Session, policy: RetryPolicy, baseFetch: typeof fetch): (request: Request) => Promise<Response> {
  return async (request) => {
    const isPublic = PUBLIC_AUTH.test(new URL(request.url).pathname);
    const explicit = request.headers.has('authorization');
    let renewed = false;
    for (let attempt = 0; ; attempt += 1) {
      const sent = request.clone();
      const authorization = isPublic || explicit ? undefined : await session.authorization();
      if (authorization) sent.headers.set('authorization', authorization);
      let response: Response;
      try {
        response = await baseFetch(sent);
      } catch (err) {
        if (request.signal.aborted) throw request.signal.reason ?? err;
        const waitMs = backoffMs(attempt);
        if (!idempotent(request) || attempt >= policy.maxRetries) throw new NetworkError(`${request.method} ${request.url}: ${(err as Error).message}`, { status: 0, code: 'NETWORK_ERROR', cause: err });
        policy.onRetry?.({ attempt: attempt + 1, method: request.method, url: request.url, status: 0, waitMs });
        await sleep(waitMs, request.signal);
        continue;
      }
      if (response.status === 401 && authorization && !renewed && session.renewable) {
        renewed = true;
        if (await session.refresh()) continue;
        return response;
      }
      const waitMs = retryWait(request, response, attempt);
      if (waitMs === undefined || attempt >= policy.maxRetries || waitMs > policy.maxWaitMs) return response;
      const error = errorOfResponse(response, await response.json().catch(() => undefined), `${request.method} ${request.url}`);
      policy.onRetry?.({ attempt: attempt + 1, method: request.method, url: request.url, status: response.status, waitMs, error });
      await sleep(waitMs, request.signal);
    }
  };
}

/** How long to wait before sending again, or undefined when this answer is final. */
function retryWait(request: Request, response: Response, attempt: number): number | undefined {
  const after = retryAfterSeconds(response.headers);
  if (response.status === 429) return (after ?? 1) * 1000;
  if ((response.status === 503 || response.status === 504) && idempotent(request)) return after !== undefined ? after * 1000 : backoffMs(attempt);
  return undefined;
}
