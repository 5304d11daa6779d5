import { asCliError, authError, CliError, DEVELOPER_MODE_HINT, kindOfStatus } from './errors.js';
import { clockTime, isExpiring, type SessionTokens } from './session.js';

/** The platform's error body (Part 1, "Errors"); reduced bodies carry only `message`. */
interface ErrorBody {
  success?: false;
  error?: { type?: string; message?: string; code?: string; details?: Record<string, unknown>; correlation_id?: string; retry_after?: number };
}

export interface ApiReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** A multipart body (uploads); sent as is. */
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Send the token (default true). */
  auth?: boolean;
  /** Statuses answered without throwing (e.g. 404 when looking something up). */
  accept?: number[];
}

/** Where tokens come from and go to: the config file, through the session. */
export interface TokenStore {
  token(): string | undefined;
  /**
   * Renews the access token: `exchange` spends a refresh token for new tokens (null when the
   * platform refused it). False when there was nothing to renew with or the renewal failed.
   */
  renew(exchange: (refreshToken: string) => Promise<SessionTokens | null>): Promise<boolean>;
}

export interface ApiClientOptions {
  baseUrl: string;
  tokens: TokenStore;
  timeoutMs: number;
  userAgent: string;
  /** Called with each request line when `--verbose` is on. */
  debug?: (message: string) => void;
  /**
   * A 429 whose wait is this many seconds or fewer is waited out and the request sent once
   * more, after `notice` tells the person; 0 (`--non-interactive`, JSON output): never.
   */
  rateLimitRetrySeconds?: number;
  notice?: (message: string) => void;
}

/** Waits of a 429 worth sitting through once, in seconds, when a person is watching. */
export const SHORT_RATE_LIMIT_WAIT_SECONDS = 5;

export const API_KEY_PREFIX = 'sk-svc-';

/** Whether a token is a refreshable access token (a JWT), as opposed to an API key. */
export function isJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/** A failed answer as a CliError carrying the platform's code, details and correlation id. */
export function errorOfReply(reply: ApiReply, method: string, path: string): CliError {
  const body = (reply.body && typeof reply.body === 'object' ? reply.body : {}) as ErrorBody;
  const error = body.error ?? {};
  const message = error.message ?? (typeof reply.body === 'string' && reply.body ? reply.body.slice(0, 200) : `${method} ${path} answered ${reply.status}`);
  const details: Record<string, unknown> = { status: reply.status, ...error.details };
  if (error.correlation_id) details.correlation_id = error.correlation_id;
  if (error.retry_after !== undefined) details.retry_after = error.retry_after;
  const code = error.code ?? (reply.status === 401 ? 'AUTHENTICATION_FAILED' : undefined);
  return new CliError(kindOfStatus(reply.status), `${message}${hintOf(reply.status, details)}`, { code, details });
}

/** What to add to a failure's message so that a person knows what to do next. */
function hintOf(status: number, details: Record<string, unknown>): string {
  if (status === 401) return ' (run `svc login`)';
  if (details.reason === 'developer_mode_required') return `; ${DEVELOPER_MODE_HINT}`;
  if (status === 429 && typeof details.resets_at === 'string') {
    const raise = details.tier === 'free' ? '; a developer_preview access code or a paid plan raises it (`svc status` shows your tier)' : '';
    return ` (at ${clockTime(Date.parse(details.resets_at))})${raise}`;
  }
  return '';
}

/** Seconds a 429 asks to wait: the body's `retry_after`, else the Retry-After header. */
function retryAfterOf(reply: ApiReply): number | undefined {
  const fromBody = (reply.body as ErrorBody | undefined)?.error?.retry_after;
  const seconds = typeof fromBody === 'number' ? fromBody : Number(reply.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * The REST client of `svc`: JSON in and out, the Bearer token from the config, one silent
 * refresh of an expired access token, and every failure turned into a CliError of the right kind.
 *
 * @example
 *   const me = await api.data<{ email: string }>('GET', '/api/v1/auth/me');
 */
export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Sends a request; answers outside 2xx (and `accept`) throw. */
  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiReply<T>> {
    const wantsAuth = options.auth ?? true;
    let token = wantsAuth ? this.options.tokens.token() : undefined;
    if (wantsAuth && !token) throw authError('Not signed in: run `svc login` (or set SVC_TOKEN)', { code: 'NOT_SIGNED_IN' });
    // An access token about to end is renewed first: one request instead of a refused one and a retry.
    if (token && isJwt(token) && isExpiring(token) && (await this.#refresh())) token = this.options.tokens.token();
    let reply = await this.#send(method, path, options, token);
    if (reply.status === 401 && token && isJwt(token) && (await this.#refresh())) {
      reply = await this.#send(method, path, options, this.options.tokens.token());
    }
    if (reply.status === 429) reply = await this.#afterShortWait(reply, () => this.#send(method, path, options, this.options.tokens.token() ?? token));
    if ((reply.status >= 200 && reply.status < 300) || options.accept?.includes(reply.status)) return reply as ApiReply<T>;
    throw errorOfReply(reply, method, path);
  }

  /** The `data` of a successful answer. */
  async data<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const reply = await this.request(method, path, options);
    return (reply.body as { data: T }).data;
  }

  async #send(method: string, path: string, options: RequestOptions, token: string | undefined): Promise<ApiReply> {
    const url = new URL(path, `${this.options.baseUrl}/`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: 'application/json', ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    this.options.debug?.(`→ ${method} ${url.pathname}${url.search}`);
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (err) {
      const failure = asCliError(err);
      if (failure.kind !== 'network') throw failure;
      // Say where the address came from, so that a wrong one can be fixed.
      throw new CliError('network', `${failure.message} (the platform at ${this.options.baseUrl}: set by SVC_API_URL, SVC_REGISTRY_URL or \`svc config set registry.url <url>\`)`, { code: failure.code, cause: err, details: { url: this.options.baseUrl } });
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (a proxy's HTML error page, say): kept as text for the message.
    }
    this.options.debug?.(`← ${res.status} ${method} ${url.pathname}`);
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** A 429 with a short wait, when a person is watching: said, waited out, and sent once more. */
  async #afterShortWait(reply: ApiReply, again: () => Promise<ApiReply>): Promise<ApiReply> {
    const wait = retryAfterOf(reply);
    const limit = this.options.rateLimitRetrySeconds ?? 0;
    if (wait === undefined || wait > limit) return reply;
    const message = (reply.body as ErrorBody | undefined)?.error?.message ?? 'Rate limited';
    this.options.notice?.(`${message.replace(/; retry in \d+ s$/, '')}: waiting ${wait} s, then trying once more`);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return again();
  }

  /** Renews the access token with the stored refresh token; false when there is none or it failed. */
  async #refresh(): Promise<boolean> {
    return this.options.tokens.renew(async (refreshToken) => {
      const reply = await this.#send('POST', '/api/v1/auth/refresh', { body: { refreshToken } }, undefined);
      if (reply.status !== 200) {
        this.options.debug?.(`the session could not be renewed (${reply.status})`);
        return null;
      }
      this.options.debug?.('access token renewed with the refresh token');
      return (reply.body as { data: SessionTokens }).data;
    });
  }
}
