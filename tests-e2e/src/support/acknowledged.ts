import { SECRETS_PER_PACK_MAX, WEBHOOKS_PER_TENANT } from '@svc/contracts';
import type { Call, Reply } from './client.js';

/** A write the fleet answered 2xx, and how to find it again. */
export interface Acknowledged {
  kind: string;
  /** The path that reads it back, and what its answer must then hold. */
  readPath: string;
  holds(reply: Reply): boolean;
}

interface Writer {
  kind: string;
  write(i: number): { path: string; method?: string; body: unknown };
  /** How the write's answer names what it made. */
  readBack(i: number, reply: Reply): Omit<Acknowledged, 'kind'>;
  /** How many of these a tenant may keep: past that a valid write is refused (400), so no more are tried. */
  limit?: number;
}

const TERMINAL = ['success', 'failure', 'timeout', 'revoked'];

/** One of each kind of write the issue names: storage, secrets, tasks, dashboards, schedules, webhooks. */
export function writers(user: { slug: string }, org: { slug: string }): Writer[] {
  return [
    {
      kind: 'storage',
      write: (i) => ({ path: `/api/v1/storage/ack-${i}`, method: 'PUT', body: { data: { i } } }),
      readBack: (i) => ({ readPath: `/api/v1/storage/ack-${i}`, holds: (reply) => reply.status === 200 && reply.body.data.value?.i === i }),
    },
    {
      kind: 'secret',
      write: (i) => ({ path: `/api/v1/secrets/${user.slug}/tally/ACK_${i}`, method: 'PUT', body: { value: `secret-${i}` } }),
      readBack: (i) => ({ readPath: `/api/v1/secrets/${user.slug}/tally`, holds: (reply) => reply.status === 200 && JSON.stringify(reply.body.data).includes(`"ACK_${i}"`) }),
      limit: SECRETS_PER_PACK_MAX,
    },
    {
      kind: 'task',
      write: (i) => ({ path: `/api/v1/commands/${user.slug}/echo?async=true`, body: { text: `ack-${i}` } }),
      readBack: (_i, reply) => ({ readPath: `/api/v1/tasks/${reply.body.data.task_id}`, holds: (read) => read.status === 200 && TERMINAL.includes(read.body.data.status) }),
    },
    {
      kind: 'dashboard',
      write: (i) => ({ path: '/api/v1/dashboards', body: { scope: `@${org.slug}`, name: `ack-board-${i}`, description: 'kept', category: 'business' } }),
      readBack: (_i, reply) => ({ readPath: `/api/v1/dashboards/${reply.body.data.slug}`, holds: (read) => read.status === 200 && read.body.data.id === reply.body.data.id }),
    },
    {
      kind: 'schedule',
      write: (i) => ({ path: '/api/v1/schedules', body: { cron: '0 0 1 1 *', command: `${user.slug}.echo`, input: { text: `ack-${i}` } } }),
      readBack: (_i, reply) => ({ readPath: `/api/v1/schedules/${reply.body.data.id}`, holds: (read) => read.status === 200 }),
    },
    {
      kind: 'webhook',
      write: (i) => ({ path: '/api/v1/webhooks', body: { url: `http://127.0.0.1:9/ack-${i}`, events: ['command.executed'] } }),
      readBack: (_i, reply) => ({ readPath: `/api/v1/webhooks/${reply.body.data.id}`, holds: (read) => read.status === 200 }),
      limit: WEBHOOKS_PER_TENANT,
    },
  ];
}

/**
 * Writes one of each kind in turn until `until()`; resolves with those answered 2xx, and how the
 * others were answered (by kind). A kind with a `limit` is tried no more than that many times,
 * counting every write that may have made one (all but a 4xx: one not answered may have been
 * done), so that it never meets the tenant's limit.
 */
export async function writeUntil(call: Call, token: string, kinds: Writer[], until: () => boolean): Promise<{ acknowledged: Acknowledged[]; unanswered: Record<string, number> }> {
  const acknowledged: Acknowledged[] = [];
  const unanswered: Record<string, number> = {};
  const made = new Map<Writer, number>();
  for (let i = 0; !until(); i++) {
    const writer = kinds[i % kinds.length]!;
    if (writer.limit !== undefined && (made.get(writer) ?? 0) >= writer.limit) continue;
    const { path, method, body } = writer.write(i);
    const reply = await call(path, { method, token, body }).catch(() => undefined);
    if (!reply || reply.status < 400 || reply.status >= 500) made.set(writer, (made.get(writer) ?? 0) + 1);
    if (reply && reply.status >= 200 && reply.status < 300) acknowledged.push({ kind: writer.kind, ...writer.readBack(i, reply) });
    else {
      const answer = `${writer.kind} ${reply ? `${reply.status} ${reply.body?.error?.code ?? ''}`.trim() : 'no answer'}`;
      unanswered[answer] = (unanswered[answer] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { acknowledged, unanswered };
}

/** The acknowledged writes that cannot be read back as written, polling each up to `withinMs` (a task may still be running). */
export async function missing(call: Call, token: string, acknowledged: Acknowledged[], withinMs: number): Promise<Acknowledged[]> {
  const until = Date.now() + withinMs;
  let left = acknowledged;
  while (left.length > 0 && Date.now() < until) {
    const checks = await Promise.all(left.map(async (ack) => ((await call(ack.readPath, { token }).then(ack.holds).catch(() => false)) ? undefined : ack)));
    left = checks.filter((ack): ack is Acknowledged => ack !== undefined);
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return left;
}
