import { z } from 'zod';

/** Longest run the CLI may report: one day, in milliseconds. */
export const TELEMETRY_DURATION_MAX_MS = 86_400_000;

const versionText = z
  .string()
  .min(1, 'must not be empty')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9.+_-]+$/, 'must be a version such as 3.12.1 or 0.4.0-beta.1');

/**
 * `POST /api/v1/telemetry` (Part 1 "Telemetry record"): anonymous, opt-in usage of the CLI.
 * Fields are narrow on purpose so that nothing personal (arguments, paths, free text) fits in
 * them; unknown fields are refused.
 */
export const TelemetryRecord = z.strictObject({
  /** The CLI command or the platform command run, e.g. `run` or `@acme/tools/hello`; never its arguments. */
  command: z
    .string()
    .min(1, 'must not be empty')
    .max(128, 'must be at most 128 characters')
    .regex(/^[A-Za-z0-9@/._: -]+$/, 'must be a command name (letters, digits, space, "@", "/", ".", "_", ":", "-")'),
  duration_ms: z.number().int('must be an integer').min(0, 'must not be negative').max(TELEMETRY_DURATION_MAX_MS, `must be at most ${TELEMETRY_DURATION_MAX_MS}`),
  success: z.boolean(),
  /** Sent by the Python SDK and CLI; clients of other languages leave it out. */
  python_version: versionText.optional(),
  os: z
    .string()
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .regex(/^[A-Za-z0-9 ._()/+-]+$/, 'must be an operating-system name such as linux, darwin or "Windows 11"'),
  cli_version: versionText,
});

export type TelemetryRecord = z.infer<typeof TelemetryRecord>;
