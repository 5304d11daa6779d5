import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { ValidationError } from '@svc/core';

/** The curves of the ECDSA key types SSH knows (`ecdsa-sha2-nistp256/384/521`), as node:crypto names them. */
const SSH_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

export const unsupportedKey = (type: string) =>
  new ValidationError(`private_key of type ${type} is not supported (RSA, Ed25519 or ECDSA)`, { field: 'private_key', reason: 'unsupported_key_type' });

/** An SSH wire-format `string`: its length (uint32, big-endian), then its bytes. */
function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/**
 * An Ed25519 key in OpenSSH's own format (`openssh-key-v1`, unencrypted), the only one in which
 * ssh2 reads Ed25519 keys (PEM has no Ed25519 form but PKCS#8). Its layout is PROTOCOL.key of
 * OpenSSH: the public key, then a private section of two equal check numbers, the key type, the
 * public key, seed and public key together, a comment, and padding 1, 2, 3… to 8 bytes.
 */
function openSshEd25519(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const pub = Buffer.from(jwk.x!, 'base64url');
  const type = 'ssh-ed25519';
  const check = randomBytes(4);
  const unpadded = Buffer.concat([check, check, sshString(type), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString('')]);
  const padding = Buffer.from(Array.from({ length: (8 - (unpadded.length % 8)) % 8 }, (_, i) => i + 1));
  const count = Buffer.alloc(4);
  count.writeUInt32BE(1);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    count,
    sshString(Buffer.concat([sshString(type), sshString(pub)])),
    sshString(Buffer.concat([unpadded, padding])),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g)!;
  return ['-----BEGIN OPENSSH PRIVATE KEY-----', ...lines, '-----END OPENSSH PRIVATE KEY-----', ''].join('\n');
}

/**
 * A PKCS#8 private key (`-----BEGIN PRIVATE KEY-----`), which ssh2 does not read, in a form it
 * does, converted by node:crypto without loss: RSA as PKCS#1 PEM, ECDSA (P-256, P-384, P-521) as
 * SEC1 PEM, Ed25519 in OpenSSH's format. Undefined when the text is not such a key; other key
 * types (DSA, Ed448, other curves) are refused.
 */
export function fromPkcs8(text: string): string | undefined {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return undefined;
  }
  const type = key.asymmetricKeyType ?? 'unknown';
  if (type === 'rsa') return key.export({ format: 'pem', type: 'pkcs1' }).toString();
  if (type === 'ec' && SSH_CURVES.has(key.asymmetricKeyDetails?.namedCurve ?? '')) return key.export({ format: 'pem', type: 'sec1' }).toString();
  if (type === 'ed25519') return openSshEd25519(key);
  throw unsupportedKey(type === 'ec' ? `ECDSA on ${key.asymmetricKeyDetails?.namedCurve ?? 'an unknown curve'}` : type);
}
