import type { AdminFunnel, OnboardingFunnel, RevenueMetrics, UsageMetrics, UserJourneys } from '@svc/contracts';
import type { Db } from '@svc/db';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import type { ActivityRow } from '../repositories/activity.repository.js';

const RECENT_EVENTS = 20;
const DAY_MS = 86_400_000;
/** How far back the admin funnel looks when `since` is not given. */
export const FUNNEL_DEFAULT_DAYS = 90;

/** The Monday (UTC) of the ISO week a `YYYY-MM-DD` day falls in. */
function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

const pct = (count: number, of: number) => (of ? Math.round((count / of) * 10_000) / 100 : 0);

/** The export's row, with the spec's columns. */
export function exportRow(row: ActivityRow) {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    user_id: row.userId,
    event_type: row.eventType,
    event_data: JSON.stringify(row.eventData),
    duration_ms: row.durationMs,
    created_at: row.createdAt.toISOString(),
  };
}
export const EXPORT_COLUMNS = ['id', 'tenant_id', 'user_id', 'event_type', 'event_data', 'duration_ms', 'created_at'] as const;

/** Answers the metrics endpoints from the read models events keep. */
export class MetricsService {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  private get repo() {
    return new MetricsRepository(this.db);
  }

  async onboarding(since?: Date): Promise<OnboardingFunnel> {
    const c = await this.repo.onboarding(since);
    const steps: Array<[string, number]> = [
      ['signup', c.signup],
      ['access_code_redeemed', c.redeemed],
      ['developer_activated', c.developer],
      ['pack_created', c.pack],
      ['command_executed', c.command],
    ];
    return { funnel: steps.map(([step, count]) => ({ step, count, conversion_pct: pct(count, c.signup) })) };
  }

  async revenue(): Promise<RevenueMetrics> {
    const [totals, events] = await Promise.all([this.repo.revenue(), this.repo.recentBillingEvents(RECENT_EVENTS)]);
    return {
      mrr_cents: totals.mrr,
      active_pro_subscribers: totals.pro,
      recent_events: events.map((e) => ({ type: e.type, data: { id: e.id, user_id: e.userId, amount_cents: e.amountCents }, created_at: e.occurredAt.toISOString() })),
    };
  }

  async usage(since?: Date): Promise<UsageMetrics> {
    const u = await this.repo.commandUsage(since);
    return { commands_executed: u.executed, active_users: u.users, error_count: u.errors, avg_command_duration_ms: u.avgMs === null ? 0 : Math.round(u.avgMs) };
  }

  async userJourneys(limit: number, offset: number): Promise<UserJourneys> {
    const users = await this.repo.journeyUsers(limit, offset);
    const events = (await this.repo.recentActivityOf(users.map((u) => u.userId))).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return users.map((u) => ({
      user_id: u.userId,
      email: u.email,
      cohort: u.cohort,
      subscription_tier: u.tier,
      created_at: u.createdAt.toISOString(),
      events_count: u.eventsCount,
      time_to_first_command_ms: u.firstCommandAt ? u.firstCommandAt.getTime() - u.createdAt.getTime() : null,
      last_active: (u.lastActiveAt ?? u.createdAt).toISOString(),
      events: events.filter((e) => e.userId === u.userId).map((e) => ({ type: e.eventType, created_at: e.createdAt.toISOString(), duration_ms: e.durationMs })),
    }));
  }

  export(since?: Date) {
    return this.repo.exportActivity(since);
  }

  async funnel(interval: 'day' | 'week', since?: Date): Promise<AdminFunnel> {
    const from = since ?? new Date(this.now().getTime() - FUNNEL_DEFAULT_DAYS * DAY_MS);
    const buckets = new Map<string, { start: string; checkout_started: number; checkout_completed: number; registered: number; first_command: number }>();
    for (const d of await this.repo.funnelDays(from)) {
      const start = interval === 'day' ? d.day : weekOf(d.day);
      const b = buckets.get(start) ?? buckets.set(start, { start, checkout_started: 0, checkout_completed: 0, registered: 0, first_command: 0 }).get(start)!;
      b.checkout_started += d.checkoutStarted;
      b.checkout_completed += d.checkoutCompleted;
      b.registered += d.registered;
      b.first_command += d.firstCommand;
    }
    return { interval, since: from.toISOString(), buckets: [...buckets.values()] };
  }
}
