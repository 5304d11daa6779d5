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

/** The pack of a `command.executed` command (`<namespace>.<command>`): its namespace. */
export function packOf(command: string): string {
  const dot = command.lastIndexOf('.');
  return dot > 0 ? command.slice(0, dot) : command;
}
