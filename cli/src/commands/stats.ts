import type { Command } from 'commander';
import { action } from '../program.js';

/** `svc stats`; the work is in `stats-report.ts`, loaded when it runs. */
export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('p50, p95 and max duration of each command run locally, and the queue that fits it (.svc/stats.json)')
    .option('--json', 'same as --output json')
    .option('--reset', 'clear the statistics')
    .action(action<{ reset?: boolean }>(async (ctx, _args, options) => (await import('./stats-report.js')).stats(ctx, options)));
}
