import createFetchClient, { type Client } from 'openapi-fetch';
import { errorOfResponse, TimeoutError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { Session, type Tokens } from './session.js';
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
 * The `data` of a 2xx answer, or the answer's error thrown as an `SvcError`: for calls made
 * through `svc.api`.
 *
 * @example
 *   const keys = await dataOf('GET /api/v1/account/api-keys', svc.api.GET('/api/v1/account/api-keys', {}));
 */
export async function dataOf<D extends { data?: unknown }>(what: string, call: Fetched<D>): Promise<NonNullable<D['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOfResponse(response, error, what);
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

  constructor(readonly options: ClientOptions) {
    const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    const cookies = options.cookies ?? typeof (globalThis as { document?: unknown }).document !== 'undefined';
    this.session = new Session({ baseUrl, fetch: baseFetch, cookies, onTokens: options.onTokens });
    const transport = createTransport(this.session, { maxRetries: options.maxRetries ?? 3, maxWaitMs: options.maxRetryWaitMs ?? 60_000, onRetry: options.onRetry }, baseFetch);
    this.api = createFetchClient<paths>({ baseUrl, fetch: transport, credentials: cookies ? 'include' : 'same-origin' });
    if (options.apiKey) this.session.useApiKey(options.apiKey);
    else if (options.accessToken || options.refreshToken) void this.session.useTokens({ accessToken: options.accessToken ?? '', refreshToken: options.refreshToken, expiresAt: options.accessToken ? undefined : 0 }, false);
  }

  /** Signs in with e-mail and password; later requests carry the access token and renew it. */
  async signIn(credentials: { email: string; password: string }): Promise<User> {
    const data = await dataOf('POST /api/v1/auth/login', this.api.POST('/api/v1/auth/login', { body: credentials }));
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
    await dataOf('POST /api/v1/auth/logout', this.api.POST('/api/v1/auth/logout', {}));
    this.session.clear();
  }

  me(): Promise<CurrentUser> {
    return dataOf('GET /api/v1/auth/me', this.api.GET('/api/v1/auth/me', {}));
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
      dataOf('GET /api/v1/tasks/{task_id}', this.api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: taskId } }, signal })),
    cancel: (taskId: string) => dataOf('POST /api/v1/tasks/{task_id}/cancel', this.api.POST('/api/v1/tasks/{task_id}/cancel', { params: { path: { task_id: taskId } } })),
    /** Polls until the task is terminal and answers it (whatever its status). */
    wait: (taskId: string, options: WaitOptions = {}): Promise<Task> => waitForTask((signal) => this.tasks.get(taskId, signal), taskId, options),
    isTerminal,
  };

  readonly storage = {
    get: (key: string) => dataOf('GET /api/v1/storage/{key}', this.api.GET('/api/v1/storage/{key}', { params: { path: { key } } })),
    /** Writes `data` under `key`, expiring after `ttl` seconds when given. */
    put: (key: string, data: Record<string, unknown>, ttl?: number) =>
      dataOf('PUT /api/v1/storage/{key}', this.api.PUT('/api/v1/storage/{key}', { params: { path: { key } }, body: { data, ttl: ttl ?? null } })),
    delete: (key: string) => dataOf('DELETE /api/v1/storage/{key}', this.api.DELETE('/api/v1/storage/{key}', { params: { path: { key } } })),
    list: (query: { prefix?: string; limit?: number; after?: string } = {}) => dataOf('GET /api/v1/storage', this.api.GET('/api/v1/storage', { params: { query } })),
  };

  readonly packs = {
    /** Publishes a package (a `.tar.gz` with `pack.yaml` at its root). */
    publish: (tarball: Blob | Uint8Array | ArrayBuffer) => {
      const form = new FormData();
      form.append('package', bytesOf(tarball, 'application/gzip'), 'pack.tar.gz');
      return dataOf('POST /api/v1/registry/packs', this.api.POST('/api/v1/registry/packs', { body: form as never, ...formBody }));
    },
    /** Installs `@namespace/name` into the caller's tenant (releases it, for its owner), `latest` or a version. */
    install: (name: string, version = 'latest') => dataOf('POST /api/v1/packs/install', this.api.POST('/api/v1/packs/install', { body: { name, version } })),
    list: () => dataOf('GET /api/v1/packs', this.api.GET('/api/v1/packs', {})),
    uninstall: (packId: string) => dataOf('DELETE /api/v1/packs/{pack_id}', this.api.DELETE('/api/v1/packs/{pack_id}', { params: { path: { pack_id: packId } } })),
  };

  readonly dashboards = {
    list: () => dataOf('GET /api/v1/dashboards', this.api.GET('/api/v1/dashboards', {})),
    create: (body: paths['/api/v1/dashboards']['post']['requestBody']['content']['application/json']) =>
      dataOf('POST /api/v1/dashboards', this.api.POST('/api/v1/dashboards', { body })),
    get: (dashboard: string) => dataOf('GET /api/v1/dashboards/{dashboard}', this.api.GET('/api/v1/dashboards/{dashboard}', { params: { path: { dashboard } } })),
    delete: (dashboard: string) => dataOf('DELETE /api/v1/dashboards/{dashboard}', this.api.DELETE('/api/v1/dashboards/{dashboard}', { params: { path: { dashboard } } })),
    /** Uploads a bundle (`.tar.gz` with `main.js`) as `version`, which becomes the active one. */
    upload: (dashboardId: string, version: string, bundle: Blob | Uint8Array | ArrayBuffer) => {
      const form = new FormData();
      form.append('version', version);
      form.append('bundle', bytesOf(bundle, 'application/gzip'), 'bundle.tar.gz');
      return dataOf('POST /api/v1/dashboards/{dashboard_id}/versions', this.api.POST('/api/v1/dashboards/{dashboard_id}/versions', { params: { path: { dashboard_id: dashboardId } }, body: form as never, ...formBody }));
    },
  };

  readonly usage = {
    get: () => dataOf('GET /api/v1/usage', this.api.GET('/api/v1/usage', {})),
    history: () => dataOf('GET /api/v1/usage/history', this.api.GET('/api/v1/usage/history', {})),
    byPack: () => dataOf('GET /api/v1/usage/by-pack', this.api.GET('/api/v1/usage/by-pack', {})),
    byUser: () => dataOf('GET /api/v1/usage/by-user', this.api.GET('/api/v1/usage/by-user', {})),
  };

  readonly webhooks = {
    list: () => dataOf('GET /api/v1/webhooks', this.api.GET('/api/v1/webhooks', {})),
    /** Registers an endpoint; the answer's `secret` (shown this once) is what `verifyWebhook` checks with. */
    create: (body: paths['/api/v1/webhooks']['post']['requestBody']['content']['application/json']) => dataOf('POST /api/v1/webhooks', this.api.POST('/api/v1/webhooks', { body })),
    get: (id: string) => dataOf('GET /api/v1/webhooks/{id}', this.api.GET('/api/v1/webhooks/{id}', { params: { path: { id } } })),
    delete: (id: string) => dataOf('DELETE /api/v1/webhooks/{id}', this.api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } })),
    deliveries: (id: string, query: { limit?: number; before?: string } = {}) =>
      dataOf('GET /api/v1/webhooks/{id}/deliveries', this.api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } })),
    ping: (id: string) => dataOf('POST /api/v1/webhooks/{id}/ping', this.api.POST('/api/v1/webhooks/{id}/ping', { params: { path: { id } } })),
    redeliver: (id: string, deliveryId: string) =>
      dataOf('POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', this.api.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id, delivery_id: deliveryId } } })),
  };
}

/** A client for the platform at `options.baseUrl`. */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}

