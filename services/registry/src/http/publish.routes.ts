import { Router, type Request, type Response } from 'express';
import multer from 'multer';
import { requireDeveloperMode, requireIdentity } from '@svc/auth';
import { CommandNamesCheckBody, PACKAGE_FIELD } from '@svc/contracts';
import { AppError, ok, parseInput, PayloadTooLargeError, ValidationError } from '@svc/core';
import { MAX_PACKAGE_BYTES, PUBLIC_KEY_FIELD, SIGNATURE_FIELD } from '@svc/pack-sdk';
import type { PublishService } from '../services/publish.service.js';

const packageInvalid = (message: string, details: Record<string, unknown> = {}) =>
  ValidationError.coded('PACKAGE_INVALID', message, { field: PACKAGE_FIELD, ...details });

/** The package is held in memory: it is at most MAX_PACKAGE_BYTES, and never extracted to disk. */
const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_PACKAGE_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
}).single(PACKAGE_FIELD);

const signatureInvalid = (message: string) =>
  ValidationError.coded('SIGNATURE_INVALID', message, { field: SIGNATURE_FIELD });

/** The detached signature sent beside the package, if any: both fields or neither. */
function signatureOf(body: unknown): { public_key: string; signature: string } | undefined {
  const fields = (body ?? {}) as Record<string, unknown>;
  const signature = fields[SIGNATURE_FIELD];
  const publicKey = fields[PUBLIC_KEY_FIELD];
  if (signature === undefined && publicKey === undefined) return undefined;
  if (typeof signature !== 'string' || typeof publicKey !== 'string') {
    throw signatureInvalid(`A signed package needs both text fields "${SIGNATURE_FIELD}" and "${PUBLIC_KEY_FIELD}" (base64)`);
  }
  return { signature, public_key: publicKey };
}

function fromMulter(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return new PayloadTooLargeError(`The package is larger than ${MAX_PACKAGE_BYTES} bytes`, { field: PACKAGE_FIELD, limit_bytes: MAX_PACKAGE_BYTES });
  if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
    return packageInvalid(`Send exactly one file, in the multipart field "${PACKAGE_FIELD}"`, { received_field: (err as { field?: string }).field ?? null });
  }
  return packageInvalid(`The multipart body could not be read: ${(err as Error).message}`);
}

/** Reads the multipart body; resolves with the package's bytes, if one was sent. */
function receivePackage(req: Request, res: Response): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    upload(req, res, (err: unknown) => (err ? reject(fromMulter(err)) : resolve(req.file?.buffer)));
  });
}

export function publishRoutes(publisher: PublishService): Router {
  const router = Router();

  router.post('/registry/command-names/check', async (req, res) => {
    res.json(ok(await publisher.checkCommandNames(requireIdentity(req), parseInput(CommandNamesCheckBody, req.body))));
  });

  router.post('/registry/packs', async (req, res) => {
    const identity = requireIdentity(req);
    // Refused before the upload is read, so a consumer account never costs us the transfer.
    requireDeveloperMode(identity, 'publish packs');
    if (!req.is('multipart/form-data')) throw packageInvalid(`Send the package as multipart/form-data, in the field "${PACKAGE_FIELD}"`);
    const tarball = await receivePackage(req, res);
    if (!tarball) throw packageInvalid(`The multipart field "${PACKAGE_FIELD}" with the .tar.gz package is missing`);
    res.status(201).json(ok(await publisher.publish(identity, tarball, signatureOf(req.body))));
  });

  return router;
}
