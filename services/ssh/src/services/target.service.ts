import { randomUUID } from 'node:crypto';
import type { BlockList } from 'node:net';
import { SSH_MESSAGES, type SshExecReply, type SshTarget, type SshVerifyResult, type SshTargetCreateBody, type SshTargetUpdateBody } from '@svc/contracts';
import { ConflictError, InternalError, NotFoundError, ValidationError, type Logger } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { hostAddresses } from '@svc/egress';
import { TargetRepository, type TargetChange, type TargetRow } from '../repositories/target.repository.js';
import type { ConnectionPool } from './connection-pool.js';
import type { Sealer } from '@svc/auth';
import { fingerprintOf, normalizeKnownHosts, parseKnownHosts, readablePrivateKey } from './key-material.js';
import { connectSsh, type AddressPolicy, type SshEndpoint } from './ssh-connect.js';
import { SshConnectionError, SshHostKeyMissingError, SshHostRefusedError } from './ssh-errors.js';
import { execOn } from './ssh-exec.js';

const view = (row: TargetRow): SshTarget => ({
  id: row.id,
  name: row.name,
  host: row.host,
  port: row.port,
  username: row.username,
  auth_method: row.authMethod,
  known_hosts: row.knownHosts,
  has_credentials: (row.authMethod === 'key' ? row.privateKeyEncrypted : row.passwordEncrypted) !== null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const contextOf = (row: Pick<TargetRow, 'tenantId' | 'id'>, field: 'private_key' | 'password') => `${row.tenantId}/${row.id}/${field}`;
const notFound = (details: Record<string, unknown>) => new NotFoundError(SSH_MESSAGES.notFound, details);

/** The credential `auth_method` needs must be sent with it; the other one is not kept. A key is kept in a form ssh2 reads. */
async function credentialOf(authMethod: 'key' | 'password', body: { private_key?: string; password?: string }): Promise<{ private_key: string } | { password: string } | undefined> {
  const value = authMethod === 'key' ? body.private_key : body.password;
  if (value === undefined) return undefined;
  return authMethod === 'key' ? { private_key: await readablePrivateKey(value) } : { password: value };
}

export interface TargetServiceOptions {
  db: Db;
  /** Seals and opens credentials (`credentialSealer`). */
  sealer: Sealer;
  pool: ConnectionPool;
  log: Logger;
  clock?: () => Date;
  /** Private ranges targets may be in besides public addresses (`SVC_SSH_ALLOWED_CIDRS`). */
  allowed?: BlockList;
}

/**
 * SSH targets of each tenant: CRUD with write-only credentials, trust-on-first-use
 * verification, and commands for packs (`exec`) over pooled connections. A credential is opened
 * only in memory, for the connection that needs it, and never logged.
 */
export class TargetService {
  readonly #clock: () => Date;
  readonly #policy: AddressPolicy;

  private readonly db: Db;
  private readonly sealer: Sealer;
  private readonly pool: ConnectionPool;
  private readonly log: Logger;

  constructor(options: TargetServiceOptions) {
    ({ db: this.db, sealer: this.sealer, pool: this.pool, log: this.log } = options);
    this.#clock = options.clock ?? (() => new Date());
    this.#policy = { allowed: options.allowed };
  }

  async list(tenantId: string): Promise<SshTarget[]> {
    return (await new TargetRepository(this.db).list(tenantId)).map(view);
  }

  async get(tenantId: string, id: string): Promise<SshTarget> {
    return view(await this.#row(tenantId, id));
  }

  async create(tenantId: string, body: SshTargetCreateBody): Promise<SshTarget> {
    const credential = await credentialOf(body.auth_method, body);
    if (!credential) throw new ValidationError(`${body.auth_method === 'key' ? 'private_key' : 'password'} is required when auth_method is ${body.auth_method}`, { field: body.auth_method === 'key' ? 'private_key' : 'password' });
    const knownHosts = body.known_hosts === undefined ? null : await this.#knownHosts(body.known_hosts);
    await this.#checkHost(body.host);
    const now = this.#clock();
    const id = randomUUID();
    const sealed = this.#seal({ tenantId, id }, credential);
    return this.#namedUniquely(body.name, async () =>
      view(
        await new TargetRepository(this.db).insert({
          id,
          tenantId,
          name: body.name,
          host: body.host,
          port: body.port,
          username: body.username,
          authMethod: body.auth_method,
          knownHosts,
          ...sealed,
          createdAt: now,
          updatedAt: now,
        }),
      ),
    );
  }

  /** Changes what is sent; a new credential replaces the old one, and switching `auth_method` needs the new one. */
  async update(tenantId: string, id: string, body: SshTargetUpdateBody): Promise<SshTarget> {
    const row = await this.#row(tenantId, id);
    const authMethod = body.auth_method ?? row.authMethod;
    const credential = await credentialOf(authMethod, body);
    if (!credential && authMethod !== row.authMethod) {
      throw new ValidationError(`${authMethod === 'key' ? 'private_key' : 'password'} is required to switch auth_method to ${authMethod}`, { field: authMethod === 'key' ? 'private_key' : 'password' });
    }
    if (body.host !== undefined) await this.#checkHost(body.host);
    const change: TargetChange = {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.host === undefined ? {} : { host: body.host }),
      ...(body.port === undefined ? {} : { port: body.port }),
      ...(body.username === undefined ? {} : { username: body.username }),
      ...(body.known_hosts === undefined ? {} : { knownHosts: body.known_hosts === null ? null : await this.#knownHosts(body.known_hosts) }),
      ...(credential ? { authMethod, ...this.#seal(row, credential) } : {}),
      updatedAt: this.#clock(),
    };
    const updated = await this.#namedUniquely(body.name ?? row.name, () => new TargetRepository(this.db).update(tenantId, id, change));
    if (!updated) throw notFound({ id });
    this.pool.forget(id);
    return view(updated);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await new TargetRepository(this.db).delete(tenantId, id))) throw notFound({ id });
    this.pool.forget(id);
  }

  /**
   * Trust on first use: connects without checking the host key and answers its fingerprint,
   * `connected` saying whether the credential was accepted. A host that cannot be reached (no
   * key seen) fails with "connection failed".
   */
  async verify(tenantId: string, id: string): Promise<SshVerifyResult> {
    const row = await this.#row(tenantId, id);
    let fingerprint: string | undefined;
    try {
      const client = await connectSsh(this.#endpoint(row), { onHostKey: (blob) => (fingerprint = fingerprintOf(blob)) }, this.#policy);
      client.end();
      return { connected: true, fingerprint: fingerprint! };
    } catch (err) {
      if (fingerprint && err instanceof SshConnectionError) return { connected: false, fingerprint };
      throw err;
    }
  }

  /** `ctx.ssh.exec`: the command on the tenant's target of that name, which must have a trusted host key. */
  async exec(tenantId: string, name: string, command: string, timeoutMs: number): Promise<SshExecReply> {
    const row = await new TargetRepository(this.db).findByName(tenantId, name);
    if (!row) throw notFound({ target: name });
    if (!row.knownHosts) throw new SshHostKeyMissingError(name);
    const hostKey = await parseKnownHosts(row.knownHosts);
    try {
      return await this.pool.with(
        row.id,
        row.updatedAt.getTime(),
        () => connectSsh(this.#endpoint(row), { hostKey }, this.#policy),
        (client) => execOn(client, command, timeoutMs),
      );
    } catch (err) {
      if (err instanceof SshConnectionError) {
        const level = err.details.reason === 'host_key_mismatch' ? 'warn' : 'info';
        this.log[level]('ssh connection failed', { target_id: row.id, reason: err.details.reason });
        err.details.target = name;
      }
      throw err;
    }
  }

  /**
   * Re-seals every credential sealed under a previous key with the current one; after it has
   * run, previous keys may be removed from the configuration. One that does not open is logged
   * (by `#open`) and left as it is. Returns how many were re-sealed.
   */
  async resealPrevious(): Promise<number> {
    const targets = new TargetRepository(this.db);
    let resealed = 0;
    for (const row of await targets.sealedUnderOtherKeys(this.sealer.currentKeyId)) {
      let credential: SshEndpoint['credential'];
      try {
        credential = this.#open(row);
      } catch {
        continue;
      }
      if (await targets.reseal(row, this.#seal(row, 'privateKey' in credential ? { private_key: credential.privateKey } : { password: credential.password }))) resealed += 1;
    }
    return resealed;
  }

  async #row(tenantId: string, id: string): Promise<TargetRow> {
    const row = await new TargetRepository(this.db).find(tenantId, id);
    if (!row) throw notFound({ id });
    return row;
  }

  /**
   * Refuses a host that is, or resolves to, an address no target may be at, so that the user
   * hears it when registering. A name that does not resolve is accepted: its DNS may come later,
   * and nothing can be reached through it meanwhile. Every connection checks again the address
   * it connects to (`connectSsh`), which is what keeps the platform's network out of reach.
   */
  async #checkHost(host: string): Promise<void> {
    const { refused } = await hostAddresses(host, this.#policy.allowed);
    if (refused.length > 0) throw new SshHostRefusedError(host);
  }

  async #knownHosts(line: string): Promise<string> {
    await parseKnownHosts(line);
    return normalizeKnownHosts(line);
  }

  async #namedUniquely<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (violatedUniqueConstraint(err) !== undefined) throw new ConflictError(`An SSH target named ${name} exists already`, { field: 'name', name });
      throw err;
    }
  }

  #seal(row: Pick<TargetRow, 'tenantId' | 'id'>, credential: { private_key: string } | { password: string }): Pick<TargetRow, 'keyId' | 'privateKeyEncrypted' | 'passwordEncrypted'> {
    const field = 'private_key' in credential ? 'private_key' : 'password';
    const { keyId, sealed } = this.sealer.seal('private_key' in credential ? credential.private_key : credential.password, contextOf(row, field));
    return { keyId, privateKeyEncrypted: field === 'private_key' ? sealed : null, passwordEncrypted: field === 'password' ? sealed : null };
  }

  /** The credential, opened; one that does not open (a key no longer configured) is logged by key id and fails the call. */
  #open(row: TargetRow): SshEndpoint['credential'] {
    try {
      if (row.authMethod === 'key') return { privateKey: this.sealer.open(row.privateKeyEncrypted!, contextOf(row, 'private_key'), row.keyId) };
      return { password: this.sealer.open(row.passwordEncrypted!, contextOf(row, 'password'), row.keyId) };
    } catch {
      this.log.error('ssh credential does not open (its key is not configured?)', { target_id: row.id, key_id: row.keyId });
      throw new InternalError("The target's credential cannot be opened with the configured keys", { target_id: row.id, key_id: row.keyId });
    }
  }

  #endpoint(row: TargetRow): SshEndpoint {
    return { host: row.host, port: row.port, username: row.username, credential: this.#open(row) };
  }
}
