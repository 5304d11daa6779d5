import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from './stats.js';

/** The repository root: launch paths and the report are relative to it. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Launched {
  pid: number;
  /** Where its output goes, for a look when something fails. */
  logFile: string;
  /** False once it has exited. */
  running(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` as a process of its own with exactly `env` (the load generator must not
 * share its event loop or cores' share with the system under test), output to `logFile`.
 */
export function launch(args: string[], env: Record<string, string | undefined>, logFile: string): Launched {
  const out = openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    logFile,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits for `url` to answer `accept`able (default: 200), as long as `process` runs. */
export async function waitForHealthy(process: Launched, url: string, withinMs = 90_000, accept: (status: number) => boolean = (status) => status === 200): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!process.running()) throw new Error('it exited');
    const reply = await fetch(url).catch(() => undefined);
    if (reply && accept(reply.status)) return;
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${withinMs} ms`);
}

export interface ProcessMemory {
  pid: number;
  command: string;
  rssMiB: number;
  /**
   * Proportional set size: pages shared with other processes (the node binary's, about 44 MiB
   * in each) counted once across the sharers rather than in every one.
   */
  pssMiB: number;
}

/** The fields of `/proc/<pid>/stat` after the command name, from the state on (`proc(5)`'s third field is [0]). */
function statFields(pid: number | string): string[] {
  // The command name may hold spaces and parentheses: the fields after its closing one are fixed.
  const stat = readFileSync(join('/proc', String(pid), 'stat'), 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function parentOf(pid: string): number | undefined {
  try {
    return Number(statFields(pid)[1]);
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Linux's USER_HZ, the unit of CPU times in `/proc`: 100 a second on every mainstream architecture. */
export const TICKS_PER_SECOND = 100;

/**
 * One thread of a process, as `/proc` names it (`<pid>/task/<tid>`): `cpuMsOf` reads its CPU as it
 * does a process's. A process's main thread has the process's id.
 */
export const mainThreadOf = (pid: number): string => `${pid}/task/${pid}`;

/** CPU time (ms, user and system, all its threads) the process, or the thread, has used so far; 0 once it is gone. */
export function cpuMsOf(pid: number | string): number {
  try {
    const fields = statFields(pid);
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * The processes whose command name (`comm`) is `name`: the local Postgres (its server and one
 * backend per connection) or RabbitMQ (`beam.smp`), whose CPU a run's figures include.
 */
export function processesNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(join('/proc', entry, 'comm'), 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function memoryOf(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const pssKib = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? Number.NaN);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = argv.find((a) => /\.(m?js|ts)$/.test(a)) ?? argv[0] ?? '?';
    return { pid, command: script.replace(ROOT, ''), rssMiB: kib / 1024, pssMiB: pssKib / 1024 };
  } catch {
    return undefined;
  }
}

/** Resident memory of `rootPid` and every descendant (pack runners included), from /proc. */
export function treeMemory(rootPid: number): ProcessMemory[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const pids = [rootPid];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]!) ?? []));
  return pids.map(memoryOf).filter((m): m is ProcessMemory => m !== undefined);
}

/** The process ids of `rootPid` and its descendants by script (`gateway/dist/main.js`, …). */
export function processIds(rootPid: number): Record<string, number> {
  return Object.fromEntries(treeMemory(rootPid).map((p) => [p.command, p.pid]));
}
