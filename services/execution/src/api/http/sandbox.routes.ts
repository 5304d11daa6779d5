import { Router, type Request, type Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { requireAccessToken, type Identity } from '@svc/auth';
import { PACKAGE_FIELD } from '@svc/contracts';
import { ok, parseInput, PayloadTooLargeError, ValidationError } from '@svc/core';
import { MAX_PACKAGE_BYTES } from '@svc/pack-sdk';
import { SANDBOX_TIMEOUT, type SandboxService } from '../services/sandbox.service.js';
import { sendRunAnswer, wantsAsync, wantsLogs } from './task.routes.js';

export const StartSandboxBody = z
  .object({ timeout: z.number().int().min(SANDBOX_TIMEOUT.min).max(SANDBOX_TIMEOUT.max).optional() })
  .strict();

const packageInvalid = (message: string) => ValidationError.coded('PACKAGE_INVALID', message, { field: PACKAGE_FIELD });

/** A synced package is held in memory, as the registry holds an upload: at most MAX_PACKAGE_BYTES. */
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_PACKAGE_BYTES, files: 1, fields: 0, parts: 1 } }).single(PACKAGE_FIELD);

function receivePackage(req: Request, res: Response): Promise<Buffer> {
  if (!req.is('multipart/form-data')) return Promise.reject(packageInvalid(`Send the package as multipart/form-data, in the field "${PACKAGE_FIELD}"`));
  return new Promise((resolve, reject) => {
    upload(req, res, (err: unknown) => {
      const code = (err as { code?: string } | undefined)?.code;
      if (code === 'LIMIT_FILE_SIZE') return reject(new PayloadTooLargeError(`The package is larger than ${MAX_PACKAGE_BYTES} bytes`, { field: PACKAGE_FIELD, limit_bytes: MAX_PACKAGE_BYTES }));
      if (err) return reject(packageInvalid(`Send exactly one file, in the multipart field "${PACKAGE_FIELD}": ${(err as Error).message}`));
      if (!req.file) return reject(packageInvalid(`The multipart field "${PACKAGE_FIELD}" with the .tar.gz package is missing`));
      resolve(req.file.buffer);
    });
  });
}

/**
 * The sandbox runs whatever code its user synced, as that user: an API key (scope
 * `commands:execute`, made for CI and MCP clients to run published commands) may not drive it,
 * and is refused with 403 before anything is read, as key management refuses keys.
 */
const sandboxUser = (req: Request): Identity => requireAccessToken(req, 'the development sandbox');

/** The caller's development sandbox: its session, the packs synced into it, their runs. */
export function sandboxRoutes(sandboxes: SandboxService): Router {
  const router = Router();
  router.get('/sandbox', async (req, res) => {
    res.json(ok(await sandboxes.status(sandboxUser(req))));
  });
  router.post('/sandbox', async (req, res) => {
    const identity = sandboxUser(req);
    const body = parseInput(StartSandboxBody, req.body ?? {});
    const { sandbox, created, warning } = await sandboxes.start(identity, body.timeout ?? SANDBOX_TIMEOUT.default);
    res.status(created ? 201 : 200).json(ok({ ...sandbox, created, ...(warning ? { warning } : {}) }));
  });
  router.delete('/sandbox', async (req, res) => {
    const { sandbox, stopped } = await sandboxes.stop(sandboxUser(req));
    res.json(ok({ ...sandbox, stopped }));
  });
  router.put('/sandbox/packs', async (req, res) => {
    const identity = sandboxUser(req);
    const synced = await sandboxes.sync(identity, await receivePackage(req, res));
    res.status(synced.created ? 201 : 200).json(ok(synced));
  });
  router.post('/sandbox/commands/:namespace/:name', async (req, res) => {
    const withLogs = wantsLogs(req);
    const answer = await sandboxes.run(sandboxUser(req), { namespace: req.params.namespace, name: req.params.name, input: req.body ?? {}, preferAsync: wantsAsync(req) });
    sendRunAnswer(req, res, answer, withLogs);
  });
  return router;
}
