import type { Context } from '../context.js';
import { readStats, resetStats, STATS_FILE } from '../dev/stats.js';
import { findPackDir } from '../pack/project.js';

export async function stats(ctx: Context, options: { reset?: boolean }): Promise<void> {
  const packDir = await findPackDir(ctx.io.cwd);
  if (options.reset) {
    await resetStats(packDir);
    ctx.out.result({ reset: true, path: packDir }, `Cleared ${STATS_FILE}.`);
    return;
  }
  const commands = await readStats(packDir);
  const header = `${'command'.padEnd(32)} ${'runs'.padStart(6)} ${'fails'.padStart(6)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}  queue`;
  const rows = commands.map((c) => `${c.command.padEnd(32)} ${String(c.runs).padStart(6)} ${String(c.failures).padStart(6)} ${`${c.p50_ms}ms`.padStart(8)} ${`${c.p95_ms}ms`.padStart(8)} ${`${c.max_ms}ms`.padStart(8)}  ${c.queue}`);
  const text = commands.length === 0 ? 'No runs recorded yet: `svc pack dev` and `svc pack exec` record them.' : [header, ...rows].join('\n');
  ctx.out.result({ path: packDir, commands }, text);
}
