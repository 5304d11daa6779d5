import { createHash } from 'node:crypto';
import { ValidationError } from '@svc/core';
import { fromPkcs8, unsupportedKey } from './pkcs8-key.js';

/**
 * ssh2's key parser, loaded with the first key or host key read, so that a platform whose packs
 * reach no SSH target never holds its modules (1.3 MB of V8's heap and more outside it;
 * BENCHMARKS.md, twentieth round). ssh2 is CommonJS: Node's ESM loader gives its exports only as
 * the default one.
 */
const sshUtils = async () => (await import('ssh2')).default.utils;

/** Host-key types a `known_hosts` line may carry, and the signature algorithms that present each. */
const HOST_KEY_ALGORITHMS: Record<string, string[]> = {
  'ssh-ed25519': ['ssh-ed25519'],
  'ssh-rsa': ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'],
  'ecdsa-sha2-nistp256': ['ecdsa-sha2-nistp256'],
  'ecdsa-sha2-nistp384': ['ecdsa-sha2-nistp384'],
  'ecdsa-sha2-nistp521': ['ecdsa-sha2-nistp521'],
};

/** The trusted host key of a target, from its `known_hosts` line. */
export interface KnownHostKey {
  type: string;
  /** The public key blob as the server presents it in the handshake. */
  blob: Buffer;
  /** Signature algorithms to offer the server, so that it presents this key and no other of its keys. */
  algorithms: string[];
}

/** `SHA256:` and the unpadded base64 SHA-256 of a public key blob, as `ssh-keygen -l` prints it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

const unreadable = () =>
  new ValidationError('private_key is not a private key ssh can read (RSA, Ed25519 or ECDSA, in OpenSSH, PEM or PKCS#8 format)', { field: 'private_key', reason: 'unreadable_key' });
const encrypted = () =>
  new ValidationError('private_key is encrypted with a passphrase; store a key without one (ssh-keygen -p -N "" -f KEY removes it from a copy)', { field: 'private_key', reason: 'encrypted_key' });

/** Checks a key as ssh2 reads it (OpenSSH; PEM: PKCS#1, SEC1). Messages never quote the key. */
async function checkSsh2Key(text: string): Promise<void> {
  const parsed = (await sshUtils()).parseKey(text);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (key instanceof Error || !key) throw /encrypted|passphrase/i.test(key?.message ?? '') ? encrypted() : unreadable();
  if (!key.isPrivateKey()) throw new ValidationError('private_key is a public key; the private key is needed', { field: 'private_key', reason: 'public_key' });
  if (!(key.type in HOST_KEY_ALGORITHMS)) throw unsupportedKey(key.type);
}

/**
 * The private key as the service keeps it: RSA, Ed25519 or ECDSA, in a form ssh2 reads. OpenSSH
 * and PEM (PKCS#1, SEC1) keys are kept as given; a PKCS#8 key (`BEGIN PRIVATE KEY`, what
 * `openssl genpkey` and `ssh-keygen -m PKCS8` write), which ssh2 does not read, is converted
 * with node:crypto into one it does (`pkcs8-key.ts`). Encrypted keys are refused (no
 * passphrase is kept). Messages never quote the key.
 */
export async function readablePrivateKey(text: string): Promise<string> {
  if (text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----')) throw encrypted();
  const readable = text.includes('-----BEGIN PRIVATE KEY-----') ? fromPkcs8(text) : text;
  if (readable === undefined) throw unreadable();
  await checkSsh2Key(readable);
  return readable;
}

/**
 * Reads one OpenSSH `known_hosts` line: `hostnames keytype base64-key [comment]`. Markers
 * (`@cert-authority`, `@revoked`) and more than one line are refused. The hostnames field is
 * kept as written but not compared with the target's host (it may be hashed, or name an alias):
 * the key is what is trusted.
 */
export async function parseKnownHosts(line: string): Promise<KnownHostKey> {
  const invalid = (message: string) => new ValidationError(`known_hosts ${message}`, { field: 'known_hosts' });
  const text = line.trim();
  if (text.includes('\n') || text.includes('\r')) throw invalid('must be one line');
  if (text.startsWith('@')) throw invalid('markers such as @cert-authority or @revoked are not supported; give a plain host key line');
  const [hosts, type, base64] = text.split(/\s+/);
  if (!hosts || !type || !base64) throw invalid('must read "hostnames keytype base64-key", as ssh-keyscan prints it');
  const algorithms = HOST_KEY_ALGORITHMS[type];
  if (!algorithms) throw invalid(`key type ${type} is not supported (${Object.keys(HOST_KEY_ALGORITHMS).join(', ')})`);
  const parsed = (await sshUtils()).parseKey(`${type} ${base64}`);
  if (parsed instanceof Error || Array.isArray(parsed) || parsed.type !== type) throw invalid('holds a key that does not parse');
  return { type, blob: parsed.getPublicSSH(), algorithms };
}

/** Trims a stored line to what it means: one line, single spaces. */
export function normalizeKnownHosts(line: string): string {
  return line.trim().split(/\s+/).join(' ');
}
