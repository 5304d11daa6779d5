import { asCliError, authError, CliError, kindOfStatus } from './errors.js';

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
  refreshToken(): string | undefined;
  saveTokens(tokens: { accessToken: string; refreshToken?: string }): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  tokens: TokenStore;
  timeoutMs: number;
  userAgent: string;
  /** Called with each request line when `--verbose` is on. */
  debug?: (message: string) => void;
}

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
  const hint = reply.status === 401 ? ' (run `svc login`)' : '';
  return new CliError(kindOfStatus(reply.status), `${message}${hint}`, { code, details });
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
    const token = wantsAuth ? this.options.tokens.token() : undefined;
    if (wantsAuth && !token) throw authError('Not signed in: run `svc login` (or set SVC_TOKEN)', { code: 'NOT_SIGNED_IN' });
    let reply = await this.#send(method, path, options, token);
    if (reply.status === 401 && token && isJwt(token) && (await this.#refresh())) {
      reply = await this.#send(method, path, options, this.options.tokens.token());
    }
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
      throw asCliError(err);
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

  /** Renews the access token with the stored refresh token; false when there is none or it failed. */
  async #refresh(): Promise<boolean> {
    const refreshToken = this.options.tokens.refreshToken();
    if (!refreshToken) return false;
    const reply = await this.#send('POST', '/api/v1/auth/refresh', { body: { refreshToken } }, undefined);
    if (reply.status !== 200) return false;
    const data = (reply.body as { data: { accessToken: string; refreshToken?: string } }).data;
    await this.options.tokens.saveTokens({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    this.options.debug?.('access token renewed with the refresh token');
    return true;
  }
}
