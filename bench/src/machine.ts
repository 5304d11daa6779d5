import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { TICKS_PER_SECOND } from './processes.js';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machineFacts(): Machine {
  const cores = cpus();
  return {
    cores: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
  };
}

/** The machine's CPU time so far (ms, all cores), and how much of it the hypervisor took for other guests. */
export interface CpuTimes {
  totalMs: number;
  stolenMs: number;
}

/** The machine's CPU times now; undefined where there is no `/proc/stat`. */
export function cpuTimes(): CpuTimes | undefined {
  return parseCpuTimes(readProcStat());
}

/** From the first line of `/proc/stat` (`proc(5)`: user nice system idle iowait irq softirq steal …). */
export function parseCpuTimes(stat: string | undefined): CpuTimes | undefined {
  const fields = stat?.split('\n')[0]?.trim().split(/\s+/);
  if (fields?.[0] !== 'cpu' || fields.length < 9) return undefined;
  const ticks = fields.slice(1, 9).map(Number);
  const msPerTick = 1000 / TICKS_PER_SECOND;
  return { totalMs: ticks.reduce((sum, t) => sum + t, 0) * msPerTick, stolenMs: ticks[7]! * msPerTick };
}

/** The share (0-1) of the machine's CPU time since `since` that was stolen; undefined without `/proc/stat`. */
export function stolenShare(since: CpuTimes | undefined, now = cpuTimes()): number | undefined {
  if (!since || !now || now.totalMs <= since.totalMs) return undefined;
  return (now.stolenMs - since.stolenMs) / (now.totalMs - since.totalMs);
}

function readProcStat(): string | undefined {
  try {
    return readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
}
