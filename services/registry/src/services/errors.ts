import { AppError, NotFoundError } from '@svc/core';
import type { PackFormatError } from '@svc/pack-sdk';

/** A package the pack format refuses, as the error body the spec describes. */
export function packFormatError(err: PackFormatError): AppError {
  const tooLarge = err.code === 'PAYLOAD_TOO_LARGE';
  return new AppError({
    status: tooLarge ? 413 : 400,
    code: err.code,
    type: tooLarge ? 'PayloadTooLargeError' : 'ValidationError',
    message: err.message,
    details: err.details,
  });
}

export const versionExists = (ref: string, version: string) =>
  new AppError({
    status: 409,
    code: 'VERSION_EXISTS',
    type: 'ConflictError',
    message: `${ref} ${version} is already published; versions are immutable, publish a new version`,
    details: { field: 'pack.version', version },
  });

export const commandNameTaken = (namespace: string, clashes: Array<{ command: string; pack: string }>) => {
  const [first] = clashes as [{ command: string; pack: string }];
  return new AppError({
    status: 409,
    code: 'COMMAND_NAME_TAKEN',
    type: 'ConflictError',
    message: `Command "${first.command}" already exists in namespace "${namespace}" (pack "${first.pack}"); command names are unique within a namespace`,
    details: { namespace, clashes },
  });
};

export const packNotFound = (details: Record<string, unknown>) => new NotFoundError('Pack not found', details);
