import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SandboxReport } from './runner-sandbox.js';

/** The first folder on the way to `dir` that `uid`/`gid` (with no other groups) may not search; undefined when none. */
export function unsearchableFolder(dir: string, uid: number, gid: number): string | undefined {
  const folders: string[] = [];
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (folder === dirname(folder)) break;
  }
  for (const folder of folders) {
    // Folders not made yet are made by the worker, searchable by all (pack-cache.ts).
    const found = statSync(folder, { throwIfNoEntry: false });
    if (!found) return undefined;
    const bit = found.uid === uid ? 0o100 : found.gid === gid ? 0o010 : 0o001;
    if ((found.mode & bit) === 0) return folder;
  }
  return undefined;
}

/**
 * Refuses to start a worker whose runners could not read the packs it unpacks: a worker that runs
 * as root starts them as another uid (65534 by default, `SVC_RUNNER_UID`), which must be able to
 * search every folder down to `packsDir`. Without this, every run would fail later with a module
 * that cannot be found. A worker that is not root runs them as itself (in a user namespace).
 */
export function assertRunnersReach(packsDir: string, report: SandboxReport): void {
  if (report.uid === process.getuid?.()) return;
  const blocked = unsearchableFolder(packsDir, report.uid, report.gid);
  if (!blocked) return;
  throw new Error(
    `SVC_DATA_DIR cannot be reached by pack runners: ${blocked} is not searchable by uid ${report.uid} (gid ${report.gid}), whom this worker, running as root, starts them as. ` +
      `Let them through (chmod o+x ${blocked}), move SVC_DATA_DIR, or set SVC_RUNNER_UID to a user who may search it.`,
  );
}
