// `npm run bench:admin -w @svc/bench` (or `pnpm --filter @svc/bench bench:admin`): the admin
// area's heaviest reads — the onboarding funnel, the admin funnel and a page of user journeys —
// on a seeded read model (10,000 users and 200,000 events by default), each timed over many runs
// straight on the service's own queries; the p95 of each is printed as a Markdown table for
// BENCHMARKS.md. Real Postgres with DATABASE_URL (a scratch database, dropped after), PGlite
// otherwise.
import { createAdminService, MetricsService } from '@svc/admin';
import { createBus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { createDatabase, createScratchDatabase } from '@svc/db';
import { sql } from 'drizzle-orm';
import { median, percentile } from './stats.js';

const USERS = Number(process.env.BENCH_ADMIN_USERS ?? 10_000);
const EVENTS = Number(process.env.BENCH_ADMIN_EVENTS ?? 200_000);
const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 200);
const DAY_MS = 86_400_000;

const log = createLogger({ service: 'bench-admin', silent: true });
const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL, 'bench') : undefined;
const database = await createDatabase({ url: scratch?.url });
const bus = await createBus({ logger: log });
const now = new Date();
const admin = createAdminService({ database, bus, log, config: { auditKey: 'bench-admin-audit-key-0123456789abcdef' }, now: () => now });
await admin.start();

// Users registered over the last 180 days; a third turned developer, a fifth published, half ran
// a command. Events spread over the users and the same 180 days, one type in ten a checkout.
const db = database.db;
const started = performance.now();
await db.execute(sql`
  insert into admin.users (user_id, tenant_id, email, tier, cohort, access_code_id, created_at, developer_at, first_pack_at, first_command_at, last_active_at, events_count)
  select 'u' || i, 't' || i, 'user' || i || '@example.test', case when i % 10 = 0 then 'pro' else 'free' end, 'cohort-' || (i % 7), 'code-' || i,
         ${now.toISOString()}::timestamptz - (i % 180) * interval '1 day' - (i % 1440) * interval '1 minute',
         case when i % 3 = 0 then ${now.toISOString()}::timestamptz - (i % 170) * interval '1 day' end,
         case when i % 5 = 0 then ${now.toISOString()}::timestamptz - (i % 160) * interval '1 day' end,
         case when i % 2 = 0 then ${now.toISOString()}::timestamptz - (i % 150) * interval '1 day' end,
         ${now.toISOString()}::timestamptz, 20
  from generate_series(1, ${USERS}) as i`);
await db.execute(sql`
  insert into admin.activity (id, tenant_id, user_id, event_type, event_data, duration_ms, created_at)
  select 'e' || i, 't' || (i % ${USERS} + 1), 'u' || (i % ${USERS} + 1),
         case i % 10 when 0 then 'checkout.started' when 1 then 'checkout.completed' when 2 then 'user.registered' else 'command.executed' end,
         '{"status":"success"}'::jsonb, i % 1000,
         ${now.toISOString()}::timestamptz - (i % 180) * interval '1 day' - (i % 86400) * interval '1 second'
  from generate_series(1, ${EVENTS}) as i`);
// The daily funnel the consumers keep as events arrive, built here from the seeded rows.
await db.execute(sql`
  insert into admin.funnel_days (day, checkout_started, checkout_completed, registered)
  select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'),
         count(*) filter (where event_type = 'checkout.started'), count(*) filter (where event_type = 'checkout.completed'), count(*) filter (where event_type = 'user.registered')
  from admin.activity group by 1`);
await db.execute(sql`
  insert into admin.funnel_days (day, first_command)
  select to_char(first_command_at at time zone 'UTC', 'YYYY-MM-DD'), count(*) from admin.users where first_command_at is not null group by 1
  on conflict (day) do update set first_command = excluded.first_command`);
await db.execute(sql`analyze admin.users`);
await db.execute(sql`analyze admin.activity`);
const seededMs = performance.now() - started;

const metrics = new MetricsService(db, () => now);
const thirtyDaysAgo = new Date(now.getTime() - 30 * DAY_MS);
const queries: Array<[string, () => Promise<unknown>]> = [
  ['onboarding funnel (all users)', () => metrics.onboarding()],
  ['onboarding funnel (since 30 days)', () => metrics.onboarding(thirtyDaysAgo)],
  ['admin funnel, daily, 90 days', () => metrics.funnel('day')],
  ['admin funnel, weekly, 90 days', () => metrics.funnel('week')],
  ['user journeys, page of 50', () => metrics.userJourneys(50, 0)],
  ['user journeys, page of 200', () => metrics.userJourneys(200, 0)],
];

const rows: string[] = [];
for (const [name, run] of queries) {
  for (let i = 0; i < Math.min(10, RUNS); i++) await run(); // warm
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  rows.push(`| ${name} | ${median(times).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${percentile(times, 95) <= 50 ? 'yes' : 'no'} |`);
}

console.log(`Admin queries on ${database.kind === 'pglite' ? 'PGlite' : 'Postgres'}: ${USERS.toLocaleString('en')} users, ${EVENTS.toLocaleString('en')} events (seeded in ${(seededMs / 1000).toFixed(1)} s), ${RUNS} runs each\n`);
console.log('| query | median ms | p95 ms | p95 ≤ 50 ms |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);

await admin.stop();
await bus.close();
await database.close();
await scratch?.drop();
