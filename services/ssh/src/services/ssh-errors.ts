import { SSH_MESSAGES } from '@svc/contracts';
import { ConflictError, IntegrationError } from '@svc/core';

/** Why a connection failed, in `details.reason`; never a credential. */
export type ConnectionFailure = 'refused' | 'unreachable' | 'timeout' | 'host_key_mismatch' | 'authentication_failed' | 'closed' | 'protocol';

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
