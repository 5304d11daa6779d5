import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process as /proc (Linux) shows it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
  cwd: string | undefined;
}

function read(pid: string): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name sits in parentheses and may hold spaces; the fields after it are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    let cwd: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      cwd = undefined;
    }
    return { pid: Number(pid), ppid, cmdline, cwd };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every process whose command line contains `fragment` (Linux only: read from /proc). */
export function processesRunning(fragment: string): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(read)
    .filter((info): info is ProcessInfo => info !== undefined && info.cmdline.includes(fragment));
}

/** The environment a process was started with (Linux). */
export function environmentOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}
