/** The usage month (`YYYY-MM`, UTC) a moment falls in. */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The first and last instants of a usage month. */
export function periodBounds(period: string): { start: string; end: string } {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(year, month - 1, 1));
  const end = new Date(Date.UTC(year, month, 1) - 1);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** The `count` months ending with `period`, oldest first. */
export function lastPeriods(period: string, count: number): string[] {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => periodOf(new Date(Date.UTC(year, month - count + i, 1))));
}

/**
 * The pack a run's event counts under: `@<namespace>/<name>` and its version as the event names
 * them. An event without them (a worker older than those fields) counts under its command's
 * namespace (`<namespace>.<command>`), version unknown (''), as every run did before.
 */
export function packOf(run: { command: string; pack?: string; version?: string }): { pack: string; version: string } {
  if (run.pack) return { pack: run.pack, version: run.version ?? '' };
  const dot = run.command.lastIndexOf('.');
  return { pack: dot > 0 ? run.command.slice(0, dot) : run.command, version: '' };
}
