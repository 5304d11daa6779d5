import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { keyFingerprint, signPackage, type PackageSignature } from '@svc/pack-sdk';
import type { Context } from '../context.js';
import { validationError } from '../errors.js';

/** Suffix of the detached signature written beside a package. */
export const SIGNATURE_SUFFIX = '.sig';

export interface SigningKey {
  path: string;
  privateKey: KeyObject;
  created: boolean;
}

/** `build.signing_key`, else `signing-key.pem` beside the config file. */
export function signingKeyPath(ctx: Context): string {
  return ctx.config.string('build.signing_key') ?? join(dirname(ctx.config.path), 'signing-key.pem');
}

/** The Ed25519 signing key, made (mode 0600) the first time it is needed. */
export async function loadSigningKey(ctx: Context): Promise<SigningKey> {
  const path = signingKeyPath(ctx);
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const { privateKey } = generateKeyPairSync('ed25519');
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    await chmod(path, 0o600);
    return { path, privateKey, created: true };
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw validationError(`${path} is not a private key in PEM`, { code: 'SIGNING_KEY_INVALID', details: { path } });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw validationError(`${path} is a ${privateKey.asymmetricKeyType} key; packages are signed with Ed25519`, { code: 'SIGNING_KEY_INVALID', details: { path } });
  return { path, privateKey, created: false };
}

export interface SignedPackage {
  signature: PackageSignature;
  keyFingerprint: string;
  keyPath: string;
}

/** Signs `tarball` with the user's key, saying so when the key was just made. */
export async function signWithUserKey(ctx: Context, tarball: Buffer): Promise<SignedPackage> {
  const key = await loadSigningKey(ctx);
  if (key.created) ctx.out.note(`Made an Ed25519 signing key: ${key.path} (keep it safe; the registry shows its fingerprint with each signed version)`);
  const signature = signPackage(tarball, key.privateKey);
  return { signature, keyFingerprint: keyFingerprint(signature.public_key), keyPath: key.path };
}

/** The detached signature written beside `packagePath` by `pack build --sign`, if there is one. */
export async function readSignatureFile(packagePath: string): Promise<PackageSignature | undefined> {
  let text: string;
  try {
    text = await readFile(`${packagePath}${SIGNATURE_SUFFIX}`, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as Partial<PackageSignature>;
  if (parsed.algorithm !== 'ed25519' || typeof parsed.public_key !== 'string' || typeof parsed.signature !== 'string') {
    throw validationError(`${packagePath}${SIGNATURE_SUFFIX} is not a package signature`, { code: 'SIGNATURE_INVALID' });
  }
  return { algorithm: 'ed25519', public_key: parsed.public_key, signature: parsed.signature };
}
