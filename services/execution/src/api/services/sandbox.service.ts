import { createHash } from 'node:crypto';
import type { Identity } from '@svc/auth';
import { ConflictError, PayloadTooLargeError, PermissionError, RateLimitError, ValidationError } from '@svc/core';
import { SANDBOX_QUOTAS, type Sandbox, type SandboxPack } from '@svc/contracts';
import type { Db } from '@svc/db';
import { inspectPackage, PackFormatError } from '@svc/pack-sdk';
import { SandboxRepository, isRunning, type SandboxRow } from '../../core/repositories/sandbox.repository.js';
import { SandboxPackageRepository, type SandboxPackageSummary } from '../../core/repositories/sandbox-package.repository.js';
import { SandboxUsageRepository, monthOf } from '../../core/repositories/sandbox-usage.repository.js';
import type { RunAnswer, RunRequest, TaskService } from './task.service.js';

/** The spec's development sandbox quotas (Part 2, "Command-line client"). */
export const SANDBOX_TIMEOUT = { default: 3600, min: 60, max: 86_400 } as const;

export const ALREADY_RUNNING = 'Your sandbox is already running (one session at a time): this is it';

const notRunning = () => ConflictError.coded('SANDBOX_NOT_RUNNING', 'Your sandbox is not running: start it first (svc sandbox start)');

function packView(pack: SandboxPackageSummary): SandboxPack {
  return {
    namespace: pack.namespace,
    name: pack.pack,
    version: pack.version,
    sha256: pack.sha256,
    size_bytes: pack.sizeBytes,
    commands: pack.manifest.commands.map((command) => command.name),
    synced_at: pack.syncedAt.toISOString(),
  };
}

function sessionView(row: SandboxRow | undefined, now: Date) {
  if (!row) {
    return { status: 'stopped' as const, sandbox_id: null, uptime: 0, timeout: SANDBOX_TIMEOUT.default, started_at: null, last_active_at: null, expires_at: null, stopped_at: null };
  }
  const up = isRunning(row, now);
  const expiry = new Date(row.lastActiveAt.getTime() + row.timeoutSeconds * 1000);
  // A session that outlived its timeout stopped then, though nothing wrote it down.
  const stoppedAt = up ? null : (row.stoppedAt ?? expiry);
  return {
    status: up ? ('running' as const) : ('stopped' as const),
    sandbox_id: row.id,
    uptime: up ? Math.floor((now.getTime() - row.startedAt.getTime()) / 1000) : 0,
    timeout: row.timeoutSeconds,
    started_at: row.startedAt.toISOString(),
    last_active_at: row.lastActiveAt.toISOString(),
    expires_at: up ? expiry.toISOString() : null,
    stopped_at: stoppedAt?.toISOString() ?? null,
  };
}

/**
 * A development sandbox per user: one session at a time (the soft limit: a second start is
 * answered with the running session and a warning), stopped by hand or after its inactivity
 * timeout. While it runs, the user syncs packs into it (100 MB in all) and runs their commands
 * through the worker like installed ones (1,000 runs a calendar month, hard). Each user reaches
 * only their own.
 */
export class SandboxService {
  private readonly sessions: SandboxRepository;
  private readonly packages: SandboxPackageRepository;
  private readonly usage: SandboxUsageRepository;

  constructor(
    db: Db,
    private readonly tasks: TaskService,
  ) {
    this.sessions = new SandboxRepository(db);
    this.packages = new SandboxPackageRepository(db);
    this.usage = new SandboxUsageRepository(db);
  }

  async start(caller: Identity, timeoutSeconds: number): Promise<{ sandbox: Sandbox; created: boolean; warning?: string }> {
    // A tool for writing packs: for accounts that may publish them, as the registry has it.
    if (!caller.developerMode) throw new PermissionError('Developer mode is required to start a sandbox', { reason: 'developer_mode_required' });
    const now = new Date();
    const started = await this.sessions.startUnlessRunning({ userId: caller.userId, tenantId: caller.tenantId, timeoutSeconds }, now);
    if (started) return { sandbox: await this.view(caller, started, now), created: true };
    // Starting it again is activity: the running session's timeout counts from now.
    const running = await this.sessions.touch(caller.userId, now);
    if (running) return { sandbox: await this.view(caller, running, now), created: false, warning: ALREADY_RUNNING };
    // It stopped between the two statements: start afresh.
    return this.start(caller, timeoutSeconds);
  }

  async stop(caller: Identity): Promise<{ sandbox: Sandbox; stopped: boolean }> {
    const now = new Date();
    const stopped = await this.sessions.stop(caller.userId, now);
    return { sandbox: await this.view(caller, stopped ?? (await this.sessions.find(caller.userId)), now), stopped: Boolean(stopped) };
  }

  async status(caller: Identity): Promise<Sandbox> {
    return this.view(caller, await this.sessions.find(caller.userId), new Date());
  }

  /** Puts a pack into the running sandbox, after the registry's own checks of the package. */
  async sync(caller: Identity, tarball: Buffer): Promise<{ pack: SandboxPack; created: boolean; storage_bytes: number }> {
    const now = new Date();
    if (!(await this.sessions.touch(caller.userId, now))) throw notRunning();
    let manifest;
    try {
      ({ manifest } = await inspectPackage(tarball));
    } catch (err) {
      if (!(err instanceof PackFormatError)) throw err;
      // The registry's checks, with the registry's answers.
      throw err.code === 'PAYLOAD_TOO_LARGE' ? new PayloadTooLargeError(err.message, err.details) : ValidationError.coded(err.code, err.message, err.details);
    }
    // Only in a namespace the caller could publish to: its runs and events name that namespace.
    if (!caller.memberships.some((membership) => membership.slug === manifest.pack.namespace)) {
      throw new PermissionError(`Namespace ${manifest.pack.namespace} is not yours`, { reason: 'namespace_not_owned', namespace: manifest.pack.namespace });
    }
    const row = {
      userId: caller.userId,
      namespace: manifest.pack.namespace,
      pack: manifest.pack.name,
      version: manifest.pack.version,
      sha256: createHash('sha256').update(tarball).digest('hex'),
      sizeBytes: tarball.length,
      manifest,
      tarball,
      syncedAt: now,
    };
    const before = (await this.packages.list(caller.userId)).some((p) => p.namespace === row.namespace && p.pack === row.pack);
    const { saved, othersBytes } = await this.packages.saveWithin(row, SANDBOX_QUOTAS.storage_bytes);
    if (!saved) {
      throw new PayloadTooLargeError(`Your sandbox holds ${othersBytes} bytes of other packs; with this one it would pass its ${SANDBOX_QUOTAS.storage_bytes} bytes`, {
        limit_bytes: SANDBOX_QUOTAS.storage_bytes,
        used_bytes: othersBytes,
        size_bytes: row.sizeBytes,
      });
    }
    return { pack: packView(row), created: !before, storage_bytes: othersBytes + row.sizeBytes };
  }

  /**
   * Runs a command of a synced pack as `POST /commands` runs an installed one. A run is counted
   * once its input passed, and refused (429) past the month's quota; it is activity.
   */
  async run(caller: Identity, request: Omit<RunRequest, 'admit' | 'pack' | 'idempotencyKey'>): Promise<RunAnswer> {
    const now = new Date();
    if (!(await this.sessions.touch(caller.userId, now))) throw notRunning();
    const { month, resetsAt } = monthOf(now);
    const admit = async () => {
      if (await this.usage.admit(caller.userId, month, SANDBOX_QUOTAS.executions_per_month)) return;
      throw RateLimitError.coded('QUOTA_EXCEEDED', `Your sandbox ran ${SANDBOX_QUOTAS.executions_per_month} commands this month; it runs more from ${resetsAt.toISOString()}`, {
        limit: SANDBOX_QUOTAS.executions_per_month,
        resets_at: resetsAt.toISOString(),
      });
    };
    return this.tasks.run(caller, { ...request, admit });
  }

  private async view(caller: Identity, row: SandboxRow | undefined, now: Date): Promise<Sandbox> {
    const { month, resetsAt } = monthOf(now);
    const [packs, executions] = await Promise.all([this.packages.list(caller.userId), this.usage.executions(caller.userId, month)]);
    return {
      ...sessionView(row, now),
      quotas: SANDBOX_QUOTAS,
      usage: { executions_this_month: executions, executions_reset_at: resetsAt.toISOString(), storage_bytes: packs.reduce((sum, p) => sum + p.sizeBytes, 0) },
      packs: packs.map(packView),
    };
  }
}
