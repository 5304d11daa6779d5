import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError, type AppError } from '@svc/core';
import type { PackFormatError } from '@svc/pack-sdk';

/** A package the pack format refuses, as the error body the spec describes. */
export function packFormatError(err: PackFormatError): AppError {
  if (err.code === 'PAYLOAD_TOO_LARGE') return new PayloadTooLargeError(err.message, err.details);
  return ValidationError.coded(err.code, err.message, err.details);
}

export const versionExists = (ref: string, version: string) =>
  ConflictError.coded('VERSION_EXISTS', `${ref} ${version} is already published; versions are immutable, publish a new version`, {
    field: 'pack.version',
    version,
  });

export const commandNameTaken = (namespace: string, clashes: Array<{ command: string; pack: string }>) => {
  const [first] = clashes as [{ command: string; pack: string }];
  return ConflictError.coded(
    'COMMAND_NAME_TAKEN',
    `Command "${first.command}" already exists in namespace "${namespace}" (pack "${first.pack}"); command names are unique within a namespace`,
    { namespace, clashes },
  );
};

export const packNotFound = (details: Record<string, unknown>) => new NotFoundError('Pack not found', details);
