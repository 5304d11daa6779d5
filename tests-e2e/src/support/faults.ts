import { sql } from 'drizzle-orm';
import { createDatabase } from '@svc/db';
import type { Call } from './client.js';

/** One fault: what starts it and what ends it (a kill ends as it starts: the rest is recovery). */
export interface Fault {
  name: string;
  inject(): void | Promise<void>;
  end(): void | Promise<void>;
}

/** What a fault did to the load around it. */
export interface FaultFigures {
  fault: string;
  /** Tasks asked for, and how the asks were answered (`202`, `503 SERVICE_UNAVAILABLE`, `no answer`…). */
  submitted: number;
  submits: Record<string, number>;
  /** Of the tasks accepted (202): ended in exactly one terminal state, and not (lost). */
  terminal: number;
  lost: number;
  /** Tasks whose command ran to completion more than once (storage marks). */
  ranTwice: number;
  /** Synchronous calls made from the fault's start to its end plus the recovery spell, by answer. */
  sync: Record<string, number>;
  /** `GET /health` answers while the fault lasted, by status. */
  health: Record<string, number>;
  /** From the fault's end to the first call begun after it that was answered 2xx, async and sync alike. */
  recoveryMs: number | null;
}

interface Timed {
  startedAt: number;
  endedAt: number;
  answer: string;
}

const tally = (answers: string[]) => answers.reduce<Record<string, number>>((counts, answer) => ({ ...counts, [answer]: (counts[answer] ?? 0) + 1 }), {});

async function timed(call: () => Promise<{ status: number; body: { error?: { code?: string } } }>): Promise<Timed> {
  const startedAt = Date.now();
  try {
    const reply = await call();
    return { startedAt, endedAt: Date.now(), answer: reply.status < 300 ? String(reply.status) : `${reply.status} ${reply.body?.error?.code ?? ''}`.trim() };
  } catch {
    return { startedAt, endedAt: Date.now(), answer: 'no answer' };
  }
}

/** Runs a loop until `until()` says stop, collecting what each turn gives; `pauseMs(result)` between turns. */
async function loop<T>(turn: () => Promise<T>, until: () => boolean, pauseMs: (result: T) => number): Promise<T[]> {
  const results: T[] = [];
  while (!until()) {
    const result = await turn();
    results.push(result);
    const pause = pauseMs(result);
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return results;
}

/** Calls every `everyMs` without waiting for the answers (a caller waiting on a worker does not stop the next). */
async function every(everyMs: number, turn: () => Promise<Timed>, until: () => boolean): Promise<Timed[]> {
  const calls: Promise<Timed>[] = [];
  while (!until()) {
    calls.push(turn());
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return Promise.all(calls);
}

/**
 * Each submitter pauses 150 ms between asks: with the synchronous caller, about 11 requests a
 * second, under the enterprise tier's 1,000 a minute, so that refusals are the fault's, not the limiter's.
 */
const PACE_MS = 150;

/** The longest the load goes on after a fault's end, waiting for both paths to answer 2xx. */
const RECOVERY_CAP_MS = 30_000;

const firstOkAfter = (calls: Timed[], at: number) => calls.filter((c) => c.startedAt >= at && c.answer.startsWith('2')).sort((a, b) => a.endedAt - b.endedAt)[0];

/**
 * Load through the gateway around one fault: two submitters of asynchronous tally naps (numbered
 * from `firstN`), one synchronous caller every 300 ms and a `/health` poller; the fault starts after `leadMs`,
 * ends `holdMs` later, and the load goes on `afterMs` more. Then every accepted task is awaited
 * (up to `settleMs`) in the fleet's database, read directly at `databaseUrl`.
 */
export async function underFault(options: { url: string; call: Call; user: { slug: string; token: string }; databaseUrl: string; fault: Fault; firstN: number; leadMs: number; holdMs: number; afterMs: number; settleMs: number }): Promise<FaultFigures> {
  const { call, user, fault } = options;
  let next = options.firstN;
  let stopped = false;
  const accepted = new Map<number, string>();
  const submitter = () =>
    loop(async () => {
      const n = next++;
      const result = await timed(async () => {
        const reply = await call(`/api/v1/commands/${user.slug}/nap?async=true`, { token: user.token, body: { n, ms: 200 } });
        if (reply.status === 202) accepted.set(n, reply.body.data.task_id);
        return reply;
      });
      submits.push(result);
      return result;
    }, () => stopped, () => PACE_MS);
  const syncCalls: Timed[] = [];
  const syncCaller = () =>
    every(
      300,
      async () => {
        const result = await timed(() => call(`/api/v1/commands/${user.slug}/echo`, { token: user.token, body: { text: 'sync' } }));
        syncCalls.push(result);
        return result;
      },
      () => stopped,
    );
  const health: Timed[] = [];
  let faultStartedAt = Infinity;
  let faultEndedAt = Infinity;
  const poller = loop(async () => {
    const result = await timed(async () => {
      const reply = await fetch(`${options.url}/health`, { signal: AbortSignal.timeout(5000) });
      return { status: reply.status, body: {} };
    });
    if (result.startedAt >= faultStartedAt && result.startedAt <= faultEndedAt) health.push({ ...result, answer: result.answer === 'no answer' ? result.answer : String(result.answer.split(' ')[0]) });
  }, () => stopped, () => 250);
  const submits: Timed[] = [];
  const load = Promise.all([submitter(), submitter(), syncCaller()]);
  const recovered = () => [firstOkAfter(submits, faultEndedAt), firstOkAfter(syncCalls, faultEndedAt)];

  await new Promise((resolve) => setTimeout(resolve, options.leadMs));
  faultStartedAt = Date.now();
  await fault.inject();
  await new Promise((resolve) => setTimeout(resolve, options.holdMs));
  await fault.end();
  faultEndedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, options.afterMs));
  while (!recovered().every(Boolean) && Date.now() < faultEndedAt + RECOVERY_CAP_MS) await new Promise((resolve) => setTimeout(resolve, 250));
  stopped = true;
  await load;
  await poller;

  const database = await createDatabase({ url: options.databaseUrl });
  const rows = async <T>(query: ReturnType<typeof sql>) => (await database.db.execute(query)) as unknown as { rows: T[] };
  try {
    const ids = [...accepted.values()];
    const until = Date.now() + options.settleMs;
    let terminal = 0;
    for (;;) {
      const ended = await rows<{ n: number }>(sql`select count(*)::int as n from execution.tasks where id = any(${`{${ids.join(',')}}`}::uuid[]) and status in ('success', 'failure', 'timeout', 'revoked')`);
      terminal = ended.rows[0]!.n;
      if (terminal === ids.length || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const marks = await rows<{ n: number }>(sql`select split_part(key, '-', 2)::int as n from storage.entries where key like 'run-%' group by 1 having count(*) > 1`);
    const twice = marks.rows.filter((row) => accepted.has(row.n)).length;
    const back = recovered();
    return {
      fault: fault.name,
      submitted: submits.length,
      submits: tally(submits.map((s) => s.answer)),
      terminal,
      lost: ids.length - terminal,
      ranTwice: twice,
      sync: tally(syncCalls.filter((c) => c.startedAt >= faultStartedAt).map((c) => c.answer)),
      health: tally(health.map((h) => h.answer)),
      recoveryMs: back.every(Boolean) ? Math.max(...back.map((c) => c!.endedAt)) - faultEndedAt : null,
    };
  } finally {
    await database.close();
  }
}
