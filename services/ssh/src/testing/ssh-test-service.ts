import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus } from '@svc/bus';
import { testDatabaseKinds, type TestDatabase, type TestDatabaseKind } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { capturingLogger, type LogEntry } from '@svc/testing';
import { createSshService, type SshConfig, type SshServiceHandle } from '../app.js';

const SECRET = 'ssh-routes-test-secret-0123456789abcdef';

export const newSshKey = () => randomBytes(32).toString('base64');

/**
 * `SVC_SSH_ALLOWED_CIDRS` of tests whose SSH servers listen on loopback, which the service
 * refuses by default: they allow it explicitly (IPv6 too, where `localhost` resolves to `::1`).
 */
export const LOOPBACK_CIDRS = ['127.0.0.0/8', '::1/128'];

export function caller(tenantId = randomUUID()): Identity {
  return personalIdentity({ userId: randomUUID(), tenantId, slug: 'someone' });
}

export interface Reply {
  status: number;
  body: any;
}

/**
 * The ssh service on a test database and the in-process bus, behind its express app, with every
 * log entry kept (`entries`) for the scan for credentials. `restart` starts it again on the
 * same database with other keys (rotation).
 */
export class SshTestService {
  /** Every entry logged since the first start, across restarts. */
  readonly entries: LogEntry[] = [];
  service!: SshServiceHandle;
  bus!: Bus;
  #db!: TestDatabase;
  #server?: Server;
  #base = '';

  /** On `kind`'s database (PGlite by default; the tests run on each of `testDatabaseKinds()`). */
  static async start(config: Partial<SshConfig> = {}, kind: TestDatabaseKind = testDatabaseKinds()[0]!): Promise<SshTestService> {
    const test = new SshTestService();
    test.#db = await kind.open();
    await test.restart(config);
    return test;
  }

  get database() {
    return this.#db.database;
  }

  async restart(config: Partial<SshConfig> = {}): Promise<void> {
    await this.#stopService();
    const { logger } = capturingLogger(this.entries);
    this.bus = await createBus({ logger });
    this.service = createSshService({ database: this.#db.database, bus: this.bus, log: logger, config: { encryptionKey: newSshKey(), idleSeconds: 60, ...config } });
    await this.service.start();
    this.#server = await listen(createServiceApp({ service: 'ssh', routes: this.service.routes, internalSecret: SECRET, log: logger }), 0, '127.0.0.1');
    this.#base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/api/v1`;
  }

  /** A request to the service as `as`; `raw` is sent as the JSON body as it is (malformed on purpose). */
  async call(path: string, options: { method?: string; as?: Identity; body?: unknown; raw?: string } = {}): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (options.as) headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(options.as, SECRET);
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.#base}${path}`, { method: options.method ?? 'GET', headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async dispose(): Promise<void> {
    await this.#stopService();
    await this.#db?.dispose();
  }

  async #stopService(): Promise<void> {
    if (this.#server) await closeServer(this.#server);
    this.#server = undefined;
    await this.service?.stop();
    await this.bus?.close();
  }
}
