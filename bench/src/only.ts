/**
 * The figures `BENCH_ONLY` may name: the table's ids, `B1f` (B1 on the fleet of separate
 * processes), `B2t` (B2 with several tenants), `L1` (one caller's latency), `frames` and `events`
 * (B1 and B4 with the bus's frame or event batching off).
 */
export const FIGURES = ['B0', 'B1', 'B1f', 'B2', 'B2t', 'B3', 'B4', 'B5', 'B6', 'B7', 'B8', 'L1', 'frames', 'events'] as const;
export type Figure = (typeof FIGURES)[number];

/**
 * `BENCH_ONLY=B1,B2`: which figures to measure, so that a change can be compared on a few of them
 * in a minute or two instead of the whole suite's nine. Unset or empty: every one.
 */
export function selection(value: string | undefined): { partial: boolean; wanted: (...ids: Figure[]) => boolean } {
  const named = (value ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = named.filter((id) => !(FIGURES as readonly string[]).includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY names unknown figures: ${unknown.join(', ')} (known: ${FIGURES.join(', ')})`);
  const chosen = new Set(named);
  return { partial: chosen.size > 0, wanted: (...ids) => chosen.size === 0 || ids.some((id) => chosen.has(id)) };
}
