import type { DashboardWithActive } from '../repositories/dashboard.repository.js';

/** How long a dashboard read by slug serves its bundle files without asking the database again. */
export const RECENT_DASHBOARD_MS = 2000;
/** Slugs kept at most; the oldest reads go first. */
const KEPT_SLUGS = 1024;

/**
 * Dashboards recently read by slug, for the requests of their bundle files: a page loads a
 * dozen files at once, and each asked the database for the same row (BENCHMARKS.md, eleventh
 * round). A dashboard's owner and visibility never change; what may is its existence, and this
 * process forgets a dashboard it deletes at once. Another replica's deletion is seen within
 * RECENT_DASHBOARD_MS; its files go with it, so what such a replica may still serve meanwhile
 * is a file it kept in memory. Absent slugs are not kept: a new dashboard is found at once.
 */
export class RecentDashboards {
  private readonly entries = new Map<string, { found: DashboardWithActive; until: number }>();

  constructor(
    private readonly keptMs = RECENT_DASHBOARD_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async get(slug: string, load: () => Promise<DashboardWithActive | undefined>): Promise<DashboardWithActive | undefined> {
    const kept = this.entries.get(slug);
    if (kept && kept.until > this.now()) return kept.found;
    this.entries.delete(slug);
    const found = await load();
    if (!found) return undefined;
    this.entries.set(slug, { found, until: this.now() + this.keptMs });
    if (this.entries.size > KEPT_SLUGS) this.entries.delete(this.entries.keys().next().value!);
    return found;
  }

  forget(slug: string): void {
    this.entries.delete(slug);
  }
}
