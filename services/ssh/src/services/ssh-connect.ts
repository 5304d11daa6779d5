import type { BlockList, Socket } from 'node:net';
import type { Client, ConnectConfig } from 'ssh2';
import { EgressRefusedError, guardedConnect, type Resolver } from '@svc/egress';
import { SshConnectionError, type ConnectionFailure } from './ssh-errors.js';
import type { KnownHostKey } from './key-material.js';

/** How long a connection may take from TCP connect to authenticated. */
export const SSH_CONNECT_TIMEOUT_MS = 10_000;

/** Where and as whom to connect, with the credential opened for this connection only. */
export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
  credential: { privateKey: string } | { password: string };
}

/** Where targets may be: public addresses, and the ranges an operator allows (`SVC_SSH_ALLOWED_CIDRS`). */
export interface AddressPolicy {
  allowed?: BlockList;
  /** The resolver of host names; tests give one of their own. */
  resolve?: Resolver;
}

/** ssh2's error, with the `level` and `code` it sets. */
type Ssh2Error = Error & { level?: string; code?: string };

function failureOf(err: Ssh2Error, hostKeyRefused: boolean): ConnectionFailure {
  if (err instanceof EgressRefusedError) return 'address_refused';
  if (hostKeyRefused) return 'host_key_mismatch';
  if (err.level === 'client-authentication') return 'authentication_failed';
  if (err.code === 'ECONNREFUSED') return 'refused';
  if (err.level === 'client-timeout' || err.code === 'ETIMEDOUT') return 'timeout';
  if (err.code === 'ENOTFOUND' || err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH' || err.code === 'EAI_AGAIN') return 'unreachable';
  return 'protocol';
}

/**
 * The TCP connection to the target, made by `guardedConnect` of `@svc/egress`: to an address the
 * policy allows, the one that was checked (a name is resolved once, by the connection itself),
 * so a name that resolves elsewhere since it was registered (DNS rebinding) reaches nothing. A
 * refused address is never connected to: `address_refused` whatever listens on the port.
 */
async function tcpTo(endpoint: SshEndpoint, policy: AddressPolicy): Promise<Socket> {
  try {
    return await guardedConnect(endpoint.host, endpoint.port, { allowed: policy.allowed, resolve: policy.resolve, timeoutMs: SSH_CONNECT_TIMEOUT_MS });
  } catch (err) {
    throw new SshConnectionError(failureOf(err as Ssh2Error, false));
  }
}

/**
 * Opens an authenticated connection. With `hostKey`, the server must present exactly that key
 * (only its algorithms are offered, so a server with several keys shows the trusted one), and a
 * different key ends the handshake before any credential is sent. Without it, `onHostKey` sees
 * the presented key and the connection goes on (trust on first use: `verify` only).
 */
export async function connectSsh(endpoint: SshEndpoint, trust: { hostKey: KnownHostKey } | { onHostKey: (blob: Buffer) => void }, policy: AddressPolicy): Promise<Client> {
  const startedAt = Date.now();
  const sock = await tcpTo(endpoint, policy);
  // Loaded with the first connection, as the key parser is (key-material.ts).
  const { Client: SshClient } = (await import('ssh2')).default;
  return new Promise((resolve, reject) => {
    const client = new SshClient();
    let hostKeyRefused = false;
    const config: ConnectConfig = {
      // ssh2 speaks over the socket already connected to the checked address; it opens none of its own.
      sock,
      username: endpoint.username,
      ...endpoint.credential,
      readyTimeout: Math.max(1, SSH_CONNECT_TIMEOUT_MS - (Date.now() - startedAt)),
      // keyboard-interactive answered with the password, for servers that offer only that.
      tryKeyboard: 'password' in endpoint.credential,
      keepaliveInterval: 15_000,
      hostVerifier: (key: Buffer) => {
        if ('onHostKey' in trust) {
          trust.onHostKey(key);
          return true;
        }
        hostKeyRefused = !key.equals(trust.hostKey.blob);
        return !hostKeyRefused;
      },
      ...('hostKey' in trust ? { algorithms: { serverHostKey: trust.hostKey.algorithms as never } } : {}),
    };
    if ('password' in endpoint.credential) {
      const { password } = endpoint.credential;
      client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => password)));
    }
    let ready = false;
    client.once('ready', () => {
      ready = true;
      resolve(client);
    });
    // After ready, an error (a dropped connection) ends the client, whose 'close' its user hears.
    client.on('error', (err: Ssh2Error) => {
      client.end();
      if (ready) return;
      sock.destroy();
      reject(new SshConnectionError(failureOf(err, hostKeyRefused)));
    });
    client.connect(config);
  });
}
