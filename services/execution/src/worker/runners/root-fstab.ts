import { renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** fstab(5) fields escape space, tab, newline and backslash in octal. */
function field(path: string): string {
  return path.replace(/[\\ \t\n]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

function bind(source: string, target: string): string {
  return `${field(source)} ${field(target)} none bind,ro,nosuid,nodev,X-mount.mkdir 0 0`;
}

/** Top-level folders of the host that hold programs and libraries (links into /usr on most systems). */
const PROGRAM_FOLDERS = ['/bin', '/lib', '/lib64', '/sbin'];

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * The part of a runner's root that is the same for every runner (`runner/runner-root.sh`): a
 * small tmpfs at `mountPoint`, the host's programs and libraries read-only (`/usr`, the top-level
 * folders the host has, the folder of `node` when it lives elsewhere, and `extraFolders`: a
 * Python installed outside `/usr`), and an empty `/tmp`.
 */
export function rootFstab(mountPoint: string, node: string, extraFolders: string[] = []): string {
  const lines = [`tmpfs ${field(mountPoint)} tmpfs mode=0755,size=64k,nosuid,nodev 0 0`, bind('/usr', join(mountPoint, 'usr'))];
  for (const folder of PROGRAM_FOLDERS.filter(isFolder)) lines.push(bind(folder, join(mountPoint, folder)));
  lines.push(`tmpfs ${field(join(mountPoint, 'tmp'))} tmpfs mode=1777,size=1m,nosuid,nodev,noexec,X-mount.mkdir 0 0`);
  if (!node.startsWith('/usr/')) lines.push(bind(dirname(node), join(mountPoint, dirname(node))));
  for (const folder of extraFolders.filter(isFolder)) lines.push(bind(folder, join(mountPoint, folder)));
  return `${lines.join('\n')}\n`;
}

/** Writes `rootFstab` to `path` whole (renamed into place), so that a runner starting meanwhile reads the old file or the new one. */
export function writeRootFstab(path: string, mountPoint: string, node: string, extraFolders: string[] = []): void {
  const staging = `${path}.${process.pid}.${Date.now()}`;
  writeFileSync(staging, rootFstab(mountPoint, node, extraFolders), { mode: 0o644 });
  renameSync(staging, path);
}
