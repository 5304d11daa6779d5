import { sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import type { TestPack } from '@svc/pack-sdk/testing';
import type { Call } from './client.js';

/**
 * A pack whose `nap` command sleeps `input.ms` and returns `{ n }` (and an `echo`). With `mark`, each run then
 * writes a storage key of its own (`run-<n>-<random>`) before it returns: a run that reached its
 * end leaves a key, so the keys of `n` count how many times task `n` was run to completion,
 * whatever its row says (at the cost of a call to storage per run).
 */
export function tallyPack(namespace: string, options: { mark?: boolean } = {}): TestPack {
  const mark = options.mark ? `\n  await ctx.storage.put('run-' + input.n + '-' + Math.random().toString(36).slice(2), { n: input.n });` : '';
  return {
    namespace,
    name: 'tally',
    commands: [{ name: 'nap', input_schema: { type: 'object' }, timeout: 30 }, { name: 'echo' }],
    files: {
      'commands/nap.js': `export default async (input, ctx) => {
  await new Promise((resolve) => setTimeout(resolve, input.ms ?? 0));${mark}
  return { n: input.n };
};`,
    },
  };
}

/** Tasks claimed for a run more than once, or not at all, by `n`: each claim is a run begun. */
export async function claimedOtherThanOnce(db: Db): Promise<Record<number, number>> {
  const result = await db.execute(sql`select (input->>'n')::int as n, attempts from execution.tasks where attempts <> 1`);
  return Object.fromEntries((result as unknown as { rows: { n: number; attempts: number }[] }).rows.map((row) => [row.n, row.attempts]));
}

/** Runs to completion of each task `n` of the tally pack, read from storage's table. */
export async function completedRuns(db: Db): Promise<Map<number, number>> {
  const result = await db.execute(sql`select split_part(key, '-', 2)::int as n, count(*)::int as runs from storage.entries where key like 'run-%' group by 1`);
  return new Map((result as unknown as { rows: { n: number; runs: number }[] }).rows.map((row) => [row.n, row.runs]));
}

/** How many tasks are in each status, from execution's table. */
export async function taskStatuses(db: Db): Promise<Record<string, number>> {
  const result = await db.execute(sql`select status, count(*)::int as n from execution.tasks group by status`);
  return Object.fromEntries((result as unknown as { rows: { status: string; n: number }[] }).rows.map((row) => [row.status, row.n]));
}

/** What submitting tasks came to: the ids of those accepted by `n`, and how each other one was answered. */
export interface Submitted {
  ids: Map<number, string>;
  refused: { n: number; answer: string }[];
}

/** Submits the tally's `nap` as tasks `from`…`to - 1`, `parallel` at a time. */
export async function submitNaps(call: Call, user: { slug: string; token: string }, range: { from: number; to: number; ms: (n: number) => number }, parallel = 8): Promise<Submitted> {
  const submitted: Submitted = { ids: new Map(), refused: [] };
  let next = range.from;
  const submitter = async () => {
    while (next < range.to) {
      const n = next++;
      try {
        const reply = await call(`/api/v1/commands/${user.slug}/nap?async=true`, { token: user.token, body: { n, ms: range.ms(n) } });
        if (reply.status === 202) submitted.ids.set(n, reply.body.data.task_id);
        else submitted.refused.push({ n, answer: `${reply.status} ${reply.body?.error?.code ?? ''}` });
      } catch (err) {
        submitted.refused.push({ n, answer: (err as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, submitter));
  return submitted;
}

/** Polls `holds` every 100 ms until it is true; fails with `failure` after `withinMs`. */
export async function waitFor(holds: () => Promise<boolean>, withinMs: number, failure: string): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await holds()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(failure);
}
