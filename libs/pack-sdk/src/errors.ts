/** What can be wrong with a package, as the registry reports it (`error.code`). */
export type PackErrorCode =
  | 'PACKAGE_INVALID'
  | 'PACKAGE_PATH_INVALID'
  | 'PAYLOAD_TOO_LARGE'
  | 'MANIFEST_INVALID'
  | 'INPUT_SCHEMA_INVALID'
  | 'ENTRY_MISSING'
  | 'SIGNATURE_INVALID';

/** A package or manifest the platform refuses; `message` names what is wrong and where. */
export class PackFormatError extends Error {
  override readonly name = 'PackFormatError';

  constructor(
    readonly code: PackErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
