import createFetchClient, { type Client } from 'openapi-fetch';
import { errorOfResponse, TimeoutError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { Session, type Exchange, type Tokens } from './session.js';
import { isTerminal, resultOf, waitForTask, type WaitOptions } from './tasks.js';
import { createTransport, type RetryInfo } from './transport.js';
import type { CurrentUser, Task, TaskAccepted, User } from './types.js';

export interface ClientOptions {
  /** The platform's origin, e.g. `http://localhost:8080` (no `/api/v1`). */
  baseUrl: string;
  /** An API key `sk-svc-…` (CI, scripts); no refresh needed. */
  apiKey?: string;
  /** An access token, and the refresh token that renews it, from an earlier sign-in. */
  accessToken?: string;
  refreshToken?: string;
  /**
   * Renew with the HttpOnly `svc_refresh` cookie instead of a refresh token in the body: what a
   * browser page does. Default: on in a browser (`document` exists), off elsewhere.
   */
  cookies?: boolean;
  /** Told of every new pair of tokens (sign-in and each refresh: the refresh token rotates). */
  onTokens?: (tokens: Tokens) => void | Promise<void>;
  /**
   * Wraps each renewal with a refresh token, for tokens kept where several processes share them
   * (a config file): hold a lock of your own around it, and answer the tokens another process
   * renewed to meanwhile instead of spending a refresh token twice, which would end the session
   * as a stolen copy does. `exchange` spends a refresh token (null: refused); `current` is the
   * pair the client holds. Answer the tokens to use from now on, or null when the session ended.
   * Default: `exchange(current.refreshToken)`. Not used in the cookie flow.
   */
  renewWith?: (exchange: Exchange, current: Tokens) => Promise<Tokens | null>;
  /** Retries of one request at most (default 3). */
  maxRetries?: number;
  /** The longest `Retry-After` (or backoff) the client waits for one retry (default 60 000 ms). */
  maxRetryWaitMs?: number;
  onRetry?: (info: RetryInfo) => void;
  /** The `fetch` to send with (default: the global one). */
  fetch?: typeof fetch;
}

export interface RunOptions {
  /** Run as a task even when the command is fast (the client still waits for its result). */
  async?: boolean;
  /** The same key within 24 h gives the first call's outcome instead of running again; makes the run safe to retry. */
  idempotencyKey?: string;
  /** Aborting stops waiting and cancels the task. */
  signal?: AbortSignal;
  /** Gives up after this long (`TimeoutError`, code `CLIENT_TIMEOUT`) and cancels the task. */
  timeoutMs?: number;
}

type Fetched<D> = Promise<{ data?: D; error?: unknown; response: Response }>;

/**
 * The `data` of a 2xx answer of an `api` call, or the answer's error thrown as an `SvcError`:
 * the platform's envelope taken off.
 *
 * @example
 *   const mode = await dataOf(svc.api.GET('/api/v1/account/mode', {}));
 */
export async function dataOf<D extends { data?: unknown }>(call: Fetched<D>, what?: string): Promise<NonNullable<D['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOfResponse(response, error, what ?? response.url);
  return (data as D).data as NonNullable<D['data']>;
}

/** `acme/echo`, `@acme/echo` or `acme.echo` → its namespace and name. */
export function parseCommand(command: string): { namespace: string; name: string } {
  const match = /^@?([^/.]+)[/.]([^/]+)$/.exec(command);
  if (!match) throw new TypeError(`a command is "namespace/name", not ${JSON.stringify(command)}`);
  return { namespace: match[1]!, name: match[2]! };
}

function bytesOf(file: Blob | Uint8Array | ArrayBuffer, type: string): Blob {
  return file instanceof Blob ? file : new Blob([file as Uint8Array<ArrayBuffer>], { type });
}

const formBody = { bodySerializer: (body: unknown) => body as FormData };

/**
 * The svc platform's client. `api` reaches every operation of the OpenAPI document, typed; the
 * helpers around it do what people do most (sign in, run a command and wait for it, storage,
 * packs, dashboards, usage, webhooks). Failures throw `SvcError` subclasses.
 *
 * @example
 *   const svc = createClient({ baseUrl: 'http://localhost:8080' });
 *   await svc.signIn({ email: 'ada@example.com', password: 'analytical' });
 *   const { echoed } = await svc.run('ada/echo', { text: 'hi' });
 */
export class SvcClient {
  /** Every operation of `/openapi.json`, typed (openapi-fetch), through the same credentials and retries. */
  readonly api: Client<paths>;
  readonly session: Session;
  readonly #transport: (request: Request) => Promise<Response>;
  readonly #baseUrl: string;

  constructor(readonly options: ClientOptions) {
    const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    const cookies = options.cookies ?? typeof (globalThis as { document?: unknown }).document !== 'undefined';
    // The session's renewals go through the transport too: a renewal refused for a rate limit
    // spent nothing (the refresh token is still good) and is waited out like any request, where
    // it would otherwise end the session. The renewal paths carry no credentials of the session's.
    let transport: (request: Request) => Promise<Response> = () => Promise.reject(new Error('the client is not built yet'));
    this.session = new Session({ baseUrl, fetch: (input, init) => transport(new Request(input, init)), cookies, onTokens: options.onTokens, renewWith: options.renewWith });
    transport = createTransport(this.session, { maxRetries: options.maxRetries ?? 3, maxWaitMs: options.maxRetryWaitMs ?? 60_000, onRetry: options.onRetry }, baseFetch);
    this.api = createFetchClient<paths>({ baseUrl, fetch: transport, credentials: cookies ? 'include' : 'same-origin' });
    this.#transport = transport;
    this.#baseUrl = baseUrl;
    if (options.apiKey) this.session.useApiKey(options.apiKey);
    else if (options.accessToken || options.refreshToken) void this.session.useTokens({ accessToken: options.accessToken ?? '', refreshToken: options.refreshToken, expiresAt: options.accessToken ? undefined : 0 }, false);
  }

  /** Signs in with e-mail and password; later requests carry the access token and renew it. */
  async signIn(credentials: { email: string; password: string }): Promise<User> {
    const data = await dataOf(this.api.POST('/api/v1/auth/login', { body: credentials }), 'POST /api/v1/auth/login');
    await this.session.useTokens(data.tokens);
    return data.user;
  }

  /** Uses an access token (and the refresh token that renews it) got elsewhere. */
  useTokens(tokens: Tokens): Promise<void> {
    return this.session.useTokens(tokens);
  }

  useApiKey(apiKey: string): void {
    this.session.useApiKey(apiKey);
  }

  /** Ends this session on the platform (its refresh token stops working) and forgets the tokens. */
  async signOut(): Promise<void> {
    await dataOf(this.api.POST('/api/v1/auth/logout', {}), 'POST /api/v1/auth/logout');
    this.session.clear();
  }

  me(): Promise<CurrentUser> {
    return dataOf(this.api.GET('/api/v1/auth/me', {}), 'GET /api/v1/auth/me');
  }

  /**
   * Runs a command and resolves to its result: a synchronous run's at once, a task's once it
   * has finished (polled with a growing pause). A failed task throws `TaskFailedError`.
   */
  async run<R = any>(command: string, input: Record<string, unknown> = {}, options: RunOptions = {}): Promise<R> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal!.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(new TimeoutError(`${command} gave no result within ${options.timeoutMs} ms`, { status: 0, code: 'CLIENT_TIMEOUT' })), options.timeoutMs);
    let taskId: string | undefined;
    try {
      const answer = await this.#submit(command, input, options, controller.signal);
      if (!('task_id' in answer)) return answer.result as R;
      taskId = answer.task_id;
      const task = await this.tasks.wait(taskId, { signal: controller.signal });
      taskId = undefined;
      return resultOf(task) as R;
    } catch (err) {
      if (controller.signal.aborted) {
        if (taskId) await this.tasks.cancel(taskId).catch(() => undefined);
        throw controller.signal.reason;
      }
      throw err;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Sends a multipart form to `path` (`/api/v1/…`, parameters filled in) through the same
   * credentials and retries, and answers the `data` of the answer: uploads with fields the
   * helpers do not take (a package's signature, a bundle's `min_sdk_version`).
   *
   * @example
   *   const form = new FormData();
   *   form.append('package', new Blob([bytes]), 'pack.tar.gz');
   *   await svc.upload('PUT', '/api/v1/sandbox/packs', form);
   */
  async upload<T = unknown>(method: 'POST' | 'PUT', path: string, form: FormData): Promise<T> {
    const response = await this.#transport(new Request(`${this.#baseUrl}${path}`, { method, body: form }));
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw errorOfResponse(response, body, `${method} ${path}`);
    return (body as { data: T }).data;
  }

  /** Starts a command as a task and answers at once with it (`tasks.wait` waits for it). */
  async start(command: string, input: Record<string, unknown> = {}, options: Omit<RunOptions, 'async' | 'timeoutMs'> = {}): Promise<TaskAccepted> {
    const answer = await this.#submit(command, input, { ...options, async: true }, options.signal);
    if (!('task_id' in answer)) throw new TypeError(`${command} answered without a task`);
    return answer;
  }

  async #submit(command: string, input: Record<string, unknown>, options: RunOptions, signal?: AbortSignal): Promise<{ result: unknown } | TaskAccepted> {
    const path = parseCommand(command);
    const headers: Record<string, string> = {};
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const { data, error, response } = await this.api.POST('/api/v1/commands/{namespace}/{name}', {
      params: { path, query: options.async ? { async: 'true' } : {} },
      body: input,
      headers,
      signal,
    });
    if (!response.ok) throw errorOfResponse(response, error, `POST /api/v1/commands/${path.namespace}/${path.name}`);
    const answer = (data as { data: Record<string, unknown> }).data;
    if (response.status === 202) return { ...(answer as Omit<TaskAccepted, 'replayed'>), replayed: response.headers.get('idempotent-replayed') === 'true' };
    return { result: answer.result };
  }

  readonly tasks = {
    get: (taskId: string, signal?: AbortSignal): Promise<Task> =>
      dataOf(this.api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: taskId } }, signal }), 'GET /api/v1/tasks/{task_id}'),
    cancel: (taskId: string) => dataOf(this.api.POST('/api/v1/tasks/{task_id}/cancel', { params: { path: { task_id: taskId } } }), 'POST /api/v1/tasks/{task_id}/cancel'),
    /** Polls until the task is terminal and answers it (whatever its status). */
    wait: (taskId: string, options: WaitOptions = {}): Promise<Task> => waitForTask((signal) => this.tasks.get(taskId, signal), taskId, options),
    isTerminal,
  };

  readonly storage = {
    get: (key: string) => dataOf(this.api.GET('/api/v1/storage/{key}', { params: { path: { key } } }), 'GET /api/v1/storage/{key}'),
    /** Writes `data` under `key`, expiring after `ttl` seconds when given. */
    put: (key: string, data: Record<string, unknown>, ttl?: number) =>
      dataOf(this.api.PUT('/api/v1/storage/{key}', { params: { path: { key } }, body: { data, ttl: ttl ?? null } }), 'PUT /api/v1/storage/{key}'),
    delete: (key: string) => dataOf(this.api.DELETE('/api/v1/storage/{key}', { params: { path: { key } } }), 'DELETE /api/v1/storage/{key}'),
    list: (query: { prefix?: string; limit?: number; after?: string } = {}) => dataOf(this.api.GET('/api/v1/storage', { params: { query } }), 'GET /api/v1/storage'),
  };

  readonly packs = {
    /** Publishes a package (a `.tar.gz` with `pack.yaml` at its root). */
    publish: (tarball: Blob | Uint8Array | ArrayBuffer) => {
      const form = new FormData();
      form.append('package', bytesOf(tarball, 'application/gzip'), 'pack.tar.gz');
      return dataOf(this.api.POST('/api/v1/registry/packs', { body: form as never, ...formBody }), 'POST /api/v1/registry/packs');
    },
    /** Installs `@namespace/name` into the caller's tenant (releases it, for its owner), `latest` or a version. */
    install: (name: string, version = 'latest') => dataOf(this.api.POST('/api/v1/packs/install', { body: { name, version } }), 'POST /api/v1/packs/install'),
    list: () => dataOf(this.api.GET('/api/v1/packs', {}), 'GET /api/v1/packs'),
    uninstall: (packId: string) => dataOf(this.api.DELETE('/api/v1/packs/{pack_id}', { params: { path: { pack_id: packId } } }), 'DELETE /api/v1/packs/{pack_id}'),
  };

  readonly dashboards = {
    list: () => dataOf(this.api.GET('/api/v1/dashboards', {}), 'GET /api/v1/dashboards'),
    create: (body: paths['/api/v1/dashboards']['post']['requestBody']['content']['application/json']) =>
      dataOf(this.api.POST('/api/v1/dashboards', { body }), 'POST /api/v1/dashboards'),
    get: (dashboard: string) => dataOf(this.api.GET('/api/v1/dashboards/{dashboard}', { params: { path: { dashboard } } }), 'GET /api/v1/dashboards/{dashboard}'),
    delete: (dashboard: string) => dataOf(this.api.DELETE('/api/v1/dashboards/{dashboard}', { params: { path: { dashboard } } }), 'DELETE /api/v1/dashboards/{dashboard}'),
    /** Uploads a bundle (`.tar.gz` with `main.js`) as `version`, which becomes the active one. */
    upload: (dashboardId: string, version: string, bundle: Blob | Uint8Array | ArrayBuffer) => {
      const form = new FormData();
      form.append('version', version);
      form.append('bundle', bytesOf(bundle, 'application/gzip'), 'bundle.tar.gz');
      return dataOf(this.api.POST('/api/v1/dashboards/{dashboard_id}/versions', { params: { path: { dashboard_id: dashboardId } }, body: form as never, ...formBody }), 'POST /api/v1/dashboards/{dashboard_id}/versions');
    },
  };

  readonly usage = {
    get: () => dataOf(this.api.GET('/api/v1/usage', {}), 'GET /api/v1/usage'),
    history: () => dataOf(this.api.GET('/api/v1/usage/history', {}), 'GET /api/v1/usage/history'),
    byPack: () => dataOf(this.api.GET('/api/v1/usage/by-pack', {}), 'GET /api/v1/usage/by-pack'),
    byUser: () => dataOf(this.api.GET('/api/v1/usage/by-user', {}), 'GET /api/v1/usage/by-user'),
  };

  readonly webhooks = {
    list: () => dataOf(this.api.GET('/api/v1/webhooks', {}), 'GET /api/v1/webhooks'),
    /** Registers an endpoint; the answer's `secret` (shown this once) is what `verifyWebhook` checks with. */
    create: (body: paths['/api/v1/webhooks']['post']['requestBody']['content']['application/json']) => dataOf(this.api.POST('/api/v1/webhooks', { body }), 'POST /api/v1/webhooks'),
    get: (id: string) => dataOf(this.api.GET('/api/v1/webhooks/{id}', { params: { path: { id } } }), 'GET /api/v1/webhooks/{id}'),
    delete: (id: string) => dataOf(this.api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } }), 'DELETE /api/v1/webhooks/{id}'),
    deliveries: (id: string, query: { limit?: number; before?: string } = {}) =>
      dataOf(this.api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } }), 'GET /api/v1/webhooks/{id}/deliveries'),
    ping: (id: string) => dataOf(this.api.POST('/api/v1/webhooks/{id}/ping', { params: { path: { id } } }), 'POST /api/v1/webhooks/{id}/ping'),
    redeliver: (id: string, deliveryId: string) =>
      dataOf(this.api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id, delivery_id: deliveryId } } }), 'POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver'),
  };
}

/** A client for the platform at `options.baseUrl`. */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}

