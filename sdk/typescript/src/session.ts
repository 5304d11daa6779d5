import { errorOfResponse } from './errors.js';

/** Tokens as the platform gives them; `expiresAt` in milliseconds since the epoch. */
export interface Tokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
  /** When the refresh token ends unless used; each renewal moves it a whole lifetime ahead. */
  refreshExpiresAt?: number;
}

/**
 * Spends a refresh token at the platform for new tokens (the refresh token rotates); null when
 * the platform refused it (spent, expired or revoked).
 */
export type Exchange = (refreshToken: string) => Promise<Tokens | null>;

export interface SessionOptions {
  baseUrl: string;
  fetch: typeof fetch;
  /** Renew with the HttpOnly `svc_refresh` cookie (a browser) instead of a refresh token in the body. */
  cookies: boolean;
  /** Told of every new pair of tokens (sign-in, each refresh), to keep them somewhere. */
  onTokens?: (tokens: Tokens) => void | Promise<void>;
  /** Wraps each body renewal (see `ClientOptions.renewWith`); default: exchange the refresh token held. */
  renewWith?: (exchange: Exchange, current: Tokens) => Promise<Tokens | null>;
}

/** Renew this long before the access token expires, so a request never leaves with a stale one. */
const EARLY_MS = 5_000;

/**
 * Who the client is: an API key, or an access token with what renews it (a refresh token, or
 * the browser's cookie). Refreshes are single-flight: refresh tokens are single use, and two
 * refreshes with the same one would look like a stolen copy and end the session.
 */
export class Session {
  #apiKey: string | undefined;
  #tokens: Tokens | undefined;
  #refreshing: Promise<boolean> | undefined;

  constructor(private readonly options: SessionOptions) {}

  get cookies(): boolean {
    return this.options.cookies;
  }

  get tokens(): Tokens | undefined {
    return this.#tokens && { ...this.#tokens };
  }

  useApiKey(apiKey: string): void {
    this.#apiKey = apiKey;
    this.#tokens = undefined;
  }

  async useTokens(tokens: Tokens, announce = true): Promise<void> {
    this.#apiKey = undefined;
    // One session, one style: in the cookie flow a refresh token in the body is never used.
    const refreshToken = this.options.cookies ? undefined : tokens.refreshToken;
    this.#tokens = { accessToken: tokens.accessToken, refreshToken, expiresAt: tokens.expiresAt ?? expiryOf(tokens.accessToken), refreshExpiresAt: tokens.refreshExpiresAt };
    if (announce) await this.options.onTokens?.(this.tokens!);
  }

  clear(): void {
    this.#apiKey = undefined;
    this.#tokens = undefined;
  }

  /** Whether an expired access token can be renewed without the user. */
  get renewable(): boolean {
    return !this.#apiKey && (this.options.cookies || !!this.#tokens?.refreshToken);
  }

  /** The `Authorization` value for the next request, renewing an access token about to expire first. */
  async authorization(): Promise<string | undefined> {
    if (this.#apiKey) return `Bearer ${this.#apiKey}`;
    const expiresAt = this.#tokens?.expiresAt;
    if (this.renewable && (!this.#tokens || (expiresAt !== undefined && expiresAt - Date.now() < EARLY_MS))) await this.refresh();
    return this.#tokens ? `Bearer ${this.#tokens.accessToken}` : undefined;
  }

  /** Renews the access token (rotating the refresh token); false when nothing can renew it. */
  refresh(): Promise<boolean> {
    if (!this.renewable) return Promise.resolve(false);
    this.#refreshing ??= this.#renew().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #renew(): Promise<boolean> {
    const renewed = this.options.cookies
      ? await this.#exchange('refresh-cookie', { credentials: 'include' })
      : await (this.options.renewWith ?? ((exchange, current) => exchange(current.refreshToken!)))((refreshToken) => this.#exchange('refresh', { body: JSON.stringify({ refreshToken }), headers: { 'content-type': 'application/json' } }), this.tokens!);
    if (!renewed) {
      // The refresh token is spent, expired or revoked: only signing in again helps.
      this.#tokens = undefined;
      return false;
    }
    await this.useTokens(renewed);
    return true;
  }

  async #exchange(path: 'refresh' | 'refresh-cookie', init: RequestInit): Promise<Tokens | null> {
    const response = await this.options.fetch(`${this.options.baseUrl}/api/v1/auth/${path}`, { method: 'POST', ...init });
    const body = await response.json().catch(() => undefined);
    if (response.status === 401 || response.status === 400) return null;
    if (!response.ok) throw errorOfResponse(response, body, `POST /api/v1/auth/${path}`);
    const { accessToken, refreshToken, expiresAt, refreshExpiresAt } = (body as { data: Tokens }).data;
    return { accessToken, refreshToken, expiresAt, refreshExpiresAt };
  }
}

/** The `exp` of a JWT, in milliseconds; undefined for anything else. */
export function expiryOf(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
