import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { secretsEqual } from '@svc/auth';
import type { Bus } from '@svc/bus';
import { FETCH_PACKAGE_RPC } from '@svc/contracts';
import { IntegrationError } from '@svc/core';
import { DEFAULT_ARCHIVE_LIMITS, expandVendoredWheels, readPackage } from '@svc/pack-sdk';
import type { PackSource } from '../../core/command-catalog.js';
import { isSandboxPack, sandboxPackageOf, sandboxVersionId } from '../../core/sandbox-packs.js';

const FETCH_TIMEOUT_MS = 30_000;

/** The packs synced into users' sandboxes: a package's bytes, and the packages a sandbox holds now. */
export interface SandboxPackages {
  tarball(userId: string, sha256: string): Promise<Buffer | undefined>;
  synced(userId: string): Promise<string[]>;
}
const COMPLETE_MARK = '.svc-complete';
const STAGING_PREFIX = '.staging-';
/** Folders readable and searchable by runners, which may run as another uid than the worker. */
const FOLDER_MODE = 0o755;

/**
 * Unpacked pack versions on this worker's disk, fetched from the registry on first use. A
 * version's files never change, so a copy is kept until the pack is uninstalled (a sandbox's
 * until the next version synced into it); concurrent first calls share one fetch, and a copy
 * appears only once it is whole.
 */
export class PackCache implements PackSource {
  private readonly fetching = new Map<string, Promise<string>>();
  /** Versions known to be whole on disk, by pack: every run asks, and a look at the disk is a system call. */
  private readonly ready = new Map<string, Set<string>>();

  /** `sandbox`: the packs synced into users' sandboxes (`core/sandbox-packs.ts`). */
  constructor(
    private readonly bus: Bus,
    private readonly root: string,
    private readonly sandbox?: SandboxPackages,
  ) {}

  dirFor(packId: string, versionId: string): Promise<string> {
    const dir = join(this.root, packId, versionId);
    if (this.ready.get(packId)?.has(versionId)) return Promise.resolve(dir);
    let pending = this.fetching.get(versionId);
    if (!pending) {
      pending = this.ensure(dir, packId, versionId)
        .then((whole) => {
          this.ready.set(packId, (this.ready.get(packId) ?? new Set()).add(versionId));
          return whole;
        })
        .finally(() => this.fetching.delete(versionId));
      this.fetching.set(versionId, pending);
    }
    return pending;
  }

  /**
   * Removes staging folders a previous process left behind (killed while unpacking). Run at
   * start-up, before any fetch of this process begins.
   */
  async sweep(): Promise<void> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    await Promise.all(names.filter((name) => name.startsWith(STAGING_PREFIX)).map((name) => rm(join(this.root, name), { recursive: true, force: true })));
  }

  /** Waits for fetches in progress (a worker stopping must not leave one writing). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.fetching.values()]);
  }

  async forget(packId: string): Promise<void> {
    this.ready.delete(packId);
    await rm(join(this.root, packId), { recursive: true, force: true });
  }

  private async ensure(dir: string, packId: string, versionId: string): Promise<string> {
    if (await stat(join(dir, COMPLETE_MARK)).then(() => true, () => false)) return dir;
    const tarball = isSandboxPack(packId) ? await this.fromSandbox(packId, versionId) : await this.fromRegistry(versionId);
    const { files } = await readPackage(tarball);
    // Vendored wheels of a Python pack are installed here, once per version (nothing is fetched).
    const runnable = expandVendoredWheels(files, DEFAULT_ARCHIVE_LIMITS);
    const staging = join(this.root, `${STAGING_PREFIX}${randomUUID()}`);
    try {
      await unpack(staging, runnable, versionId);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dirname(dir), { recursive: true, mode: FOLDER_MODE });
      await rename(staging, dir);
    } finally {
      // Whatever failed on the way (a write, a collision, a full disk), nothing is left behind.
      await rm(staging, { recursive: true, force: true });
    }
    if (isSandboxPack(packId)) await this.dropResyncedSandboxVersions(packId, versionId);
    return dir;
  }

  /**
   * A user's sandbox holds the last sync of each of its packs; the copies of earlier syncs can
   * never run again (their bytes are gone), and each sync a user runs would otherwise leave one
   * on disk for good.
   */
  private async dropResyncedSandboxVersions(packId: string, current: string): Promise<void> {
    const { userId } = sandboxPackageOf(packId, current);
    const held = new Set((await this.sandbox!.synced(userId)).map(sandboxVersionId));
    const versions = await readdir(join(this.root, packId)).catch(() => [] as string[]);
    for (const version of versions.filter((name) => name !== current && !held.has(name))) {
      this.ready.get(packId)?.delete(version);
      await rm(join(this.root, packId, version), { recursive: true, force: true });
    }
  }

  private async fromRegistry(versionId: string): Promise<Buffer> {
    const fetched = await this.bus.request(FETCH_PACKAGE_RPC, { version_id: versionId }, { timeoutMs: FETCH_TIMEOUT_MS });
    const tarball = Buffer.from(fetched.tarball_base64, 'base64');
    if (!secretsEqual(createHash('sha256').update(tarball).digest('hex'), fetched.sha256)) throw new IntegrationError('Pack package failed its checksum', { version_id: versionId });
    return tarball;
  }

  private async fromSandbox(packId: string, versionId: string): Promise<Buffer> {
    const { userId, sha256 } = sandboxPackageOf(packId, versionId);
    const tarball = await this.sandbox?.tarball(userId, sha256);
    // Synced again with other content since the run was queued.
    if (!tarball) throw new IntegrationError('The sandbox no longer holds this version of the pack: sync it again', { version_id: versionId });
    return tarball;
  }
}

/** Writes the files read-only into `staging`, the completion mark last. */
async function unpack(staging: string, files: Map<string, Buffer>, versionId: string): Promise<void> {
  for (const [path, content] of files) {
    const target = join(staging, path);
    await mkdir(dirname(target), { recursive: true, mode: FOLDER_MODE });
    await writeFile(target, content, { mode: 0o444 });
  }
  await writeFile(join(staging, COMPLETE_MARK), versionId);
}
