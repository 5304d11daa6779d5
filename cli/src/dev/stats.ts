import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { queueForTimeout, type Queue } from '@svc/pack-sdk';

/** Where a pack's local run statistics are kept, under its folder. */
export const STATS_FILE = join('.svc', 'stats.json');
/** Runs kept per command; older ones are dropped. */
export const MAX_SAMPLES = 1000;

interface CommandSamples {
  /** Durations of successful and failed runs, milliseconds, oldest first. */
  durations_ms: number[];
  runs: number;
  failures: number;
  last_run_at: string;
}

interface StatsFile {
  version: 1;
  commands: Record<string, CommandSamples>;
}

export interface CommandStats {
  command: string;
  runs: number;
  failures: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  /** The queue the platform would pick for a timeout covering the slowest run: fast ≤ 30 s, medium ≤ 300 s, long. */
  queue: Queue;
  last_run_at: string;
}

async function load(packDir: string): Promise<StatsFile> {
  try {
    const parsed = JSON.parse(await readFile(join(packDir, STATS_FILE), 'utf8')) as StatsFile;
    if (parsed.version === 1 && parsed.commands && typeof parsed.commands === 'object') return parsed;
  } catch {
    // Missing or unreadable: start again.
  }
  return { version: 1, commands: {} };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Writes of this process, one after the other (a dev server records runs that end together). */
let writes: Promise<void> = Promise.resolve();

/** Adds one run of `command` (`namespace/name`) to the pack's statistics. */
export function recordRun(packDir: string, command: string, durationMs: number, ok: boolean): Promise<void> {
  const write = writes.then(() => record(packDir, command, durationMs, ok));
  writes = write.catch(() => {});
  return write;
}

async function record(packDir: string, command: string, durationMs: number, ok: boolean): Promise<void> {
  const stats = await load(packDir);
  const samples = stats.commands[command] ?? { durations_ms: [], runs: 0, failures: 0, last_run_at: '' };
  samples.durations_ms.push(Math.round(durationMs));
  if (samples.durations_ms.length > MAX_SAMPLES) samples.durations_ms.splice(0, samples.durations_ms.length - MAX_SAMPLES);
  samples.runs += 1;
  if (!ok) samples.failures += 1;
  samples.last_run_at = new Date().toISOString();
  stats.commands[command] = samples;
  await mkdir(join(packDir, '.svc'), { recursive: true });
  const file = join(packDir, STATS_FILE);
  await writeFile(`${file}.${process.pid}.tmp`, JSON.stringify(stats, null, 2));
  await rename(`${file}.${process.pid}.tmp`, file);
}

export async function readStats(packDir: string): Promise<CommandStats[]> {
  const stats = await load(packDir);
  return Object.entries(stats.commands)
    .map(([command, samples]) => {
      const sorted = [...samples.durations_ms].sort((a, b) => a - b);
      const max = sorted.at(-1) ?? 0;
      return {
        command,
        runs: samples.runs,
        failures: samples.failures,
        p50_ms: percentile(sorted, 50),
        p95_ms: percentile(sorted, 95),
        max_ms: max,
        queue: queueForTimeout(Math.ceil(max / 1000)),
        last_run_at: samples.last_run_at,
      };
    })
    .sort((a, b) => a.command.localeCompare(b.command));
}

export async function resetStats(packDir: string): Promise<void> {
  await rm(join(packDir, STATS_FILE), { force: true });
}
