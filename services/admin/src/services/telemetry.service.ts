import type { TelemetryRecord } from '@svc/contracts';
import type { Db } from '@svc/db';
import { TelemetryRepository, type TelemetryRow } from '../repositories/telemetry.repository.js';

/** Keeps what the CLI reports, and nothing about who reported it. */
export class TelemetryService {
  constructor(private readonly db: Db) {}

  async record(input: TelemetryRecord): Promise<{ received: true }> {
    await new TelemetryRepository(this.db).insert({
      command: input.command,
      durationMs: input.duration_ms,
      success: input.success,
      pythonVersion: input.python_version ?? null,
      os: input.os,
      cliVersion: input.cli_version,
    });
    return { received: true };
  }

  /** The most recent records, newest first (for the metrics read models and tests). */
  async latest(limit = 100): Promise<TelemetryRow[]> {
    return new TelemetryRepository(this.db).latest(limit);
  }
}
