import { SSH_MESSAGES } from '@svc/contracts';
import { ConflictError, IntegrationError, ValidationError } from '@svc/core';

/**
 * Why a connection failed, in `details.reason`; never a credential. `address_refused`: the host
 * is, or resolves to, an address no target may be at; nothing was connected to, so the answer is
 * the same whatever listens on the port.
 */
export type ConnectionFailure = 'address_refused' | 'refused' | 'unreachable' | 'timeout' | 'host_key_mismatch' | 'authentication_failed' | 'closed' | 'protocol' | 'channel_refused';

/** The target did not let us in (502 `SSH_CONNECTION_FAILED`, "connection failed"). */
export class SshConnectionError extends IntegrationError {
  constructor(reason: ConnectionFailure, details: Record<string, unknown> = {}) {
    super(SSH_MESSAGES.connectionFailed, { ...details, reason }, { code: 'SSH_CONNECTION_FAILED' });
  }
}

/** A target without a `known_hosts` line is never used for commands: verify it and store the line first (409 `SSH_HOST_KEY_MISSING`). */
export class SshHostKeyMissingError extends ConflictError {
  constructor(target: string) {
    super(SSH_MESSAGES.noHostKey, { target }, { code: 'SSH_HOST_KEY_MISSING' });
  }
}

/**
 * A target's host that is, or resolves to, a loopback, private, shared, link-local (cloud
 * metadata), multicast or reserved address outside `SVC_SSH_ALLOWED_CIDRS`, refused when the
 * target is registered or changed (400 `SSH_HOST_REFUSED`). The message never names what a
 * name resolved to: that would show the platform's own DNS.
 */
export class SshHostRefusedError extends ValidationError {
  constructor(host: string) {
    super(
      `host ${host} is, or resolves to, an address SSH targets may not use (loopback, private, link-local or reserved); targets must be on public addresses`,
      { field: 'host', reason: 'address_refused' },
      { code: 'SSH_HOST_REFUSED' },
    );
  }
}

/**
 * The server refused a channel on a connection that is up (RFC 4254's open failure): OpenSSH does
 * past `MaxSessions`, counting sessions it has closed but not yet released. Retried by the pool,
 * then a SshConnectionError (`channel_refused`).
 */
export class ChannelRefusedError extends Error {
  constructor(readonly serverSaid: string) {
    super(`the server refused a channel: ${serverSaid}`);
  }
}
