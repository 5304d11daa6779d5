import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { PackFormatError } from './errors.js';

/** Multipart fields of a signed upload, beside the `package` file. */
export const SIGNATURE_FIELD = 'signature';
export const PUBLIC_KEY_FIELD = 'public_key';

/**
 * A detached Ed25519 signature of a package's exact bytes, as `svc pack build --sign` writes it
 * beside the tarball (`<package>.sig`, JSON) and sends it with the upload.
 */
export interface PackageSignature {
  algorithm: 'ed25519';
  /** The signer's public key: DER (SubjectPublicKeyInfo), base64. */
  public_key: string;
  /** Ed25519 signature of the tarball's bytes, base64. */
  signature: string;
}

/** Length of an Ed25519 public key in SubjectPublicKeyInfo DER. */
const ED25519_SPKI_BYTES = 44;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * `SHA256:<base64>` of the public key's DER, the way OpenSSH prints key fingerprints.
 *
 * @example
 *   keyFingerprint(signature.public_key); // 'SHA256:q1w2…'
 */
export function keyFingerprint(publicKeyBase64: string): string {
  return `SHA256:${createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Signs a package with an Ed25519 private key.
 *
 * @example
 *   const { privateKey } = generateKeyPairSync('ed25519');
 *   const signature = signPackage(tarball, privateKey);
 */
export function signPackage(tarball: Buffer, privateKey: KeyObject): PackageSignature {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`The signing key is ${privateKey.asymmetricKeyType ?? 'not asymmetric'}; an Ed25519 key is needed`);
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return { algorithm: 'ed25519', public_key: publicKey.toString('base64'), signature: sign(null, tarball, privateKey).toString('base64') };
}

const signatureInvalid = (message: string) => new PackFormatError('SIGNATURE_INVALID', message, { field: SIGNATURE_FIELD });

/**
 * Checks that `signature` is an Ed25519 signature of exactly these bytes by `publicKey` (both
 * base64); returns the key's fingerprint, or throws PackFormatError `SIGNATURE_INVALID`.
 *
 * @example
 *   const fingerprint = verifyPackageSignature(tarball, { public_key, signature });
 */
export function verifyPackageSignature(tarball: Buffer, given: { public_key: string; signature: string }): string {
  if (!BASE64.test(given.public_key) || !BASE64.test(given.signature)) throw signatureInvalid('The signature and public key must be base64');
  const der = Buffer.from(given.public_key, 'base64');
  let key: KeyObject;
  try {
    if (der.length !== ED25519_SPKI_BYTES) throw new Error('wrong length');
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch {
    throw signatureInvalid('The public key is not an Ed25519 key (DER SubjectPublicKeyInfo, base64)');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw signatureInvalid('The public key is not an Ed25519 key');
  if (!verify(null, tarball, key, Buffer.from(given.signature, 'base64'))) throw signatureInvalid('The signature does not match the package and public key');
  return keyFingerprint(given.public_key);
}
