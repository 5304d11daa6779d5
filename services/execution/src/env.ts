import { z } from 'zod';
import { envBoolean, parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';
import { TIER_VALUES } from '@svc/contracts';
import { QUEUES, type Queue } from '@svc/pack-sdk';
import { DEFAULT_TENANT_SHARES } from './worker/services/tenant-shares.js';

const int = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** What both the API process and the worker process read. */
export const ExecutionEnv = z.object({
  ...infrastructureEnv,
  /** The MCP endpoint's command-run budget follows the gateway's settings. */
  RATE_LIMIT_ENABLED: envBoolean.default(true),
  RATE_LIMIT_STORAGE: z.enum(['redis', 'memory']).optional(),
  /** How long a synchronous call waits before it turns into a task. */
  SVC_SYNC_WAIT_MS: int(100, 300_000, 30_000),
  /** How long finished tasks keep their results (then 410). */
  SVC_TASK_RETENTION_SECONDS: int(1, 30 * 86_400, 86_400),
  SVC_RETRY_BASE_MS: int(10, 600_000, 1000),
  SVC_RETRY_MAX_MS: int(10, 3_600_000, 60_000),
  SVC_RUNNER_MEMORY_MB: int(32, 4096, 128),
  SVC_RUNNER_IDLE_SECONDS: int(1, 86_400, 60),
  SVC_MAX_RUNNERS: int(1, 1000, 32),
  /** Whether a worker keeps a runner of each runtime in use started ahead for the next first call (README "Life cycle"). */
  SVC_RUNNER_SPARE: envBoolean.default(true),
  SVC_PREFETCH_FAST: int(1, 1000, 64),
  SVC_PREFETCH_MEDIUM: int(1, 1000, 8),
  SVC_PREFETCH_LONG: int(1, 1000, 2),
  /**
   * The part of a worker (its runners, each queue's prefetch) one tenant may hold, by tier:
   * `free=0.25,pro=0.5`; tiers not named keep their default.
   */
  SVC_TENANT_SHARE: z
    .string()
    .default('')
    .transform((text, context) => {
      const shares = { ...DEFAULT_TENANT_SHARES };
      for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
        const [tier, value] = entry.split('=');
        const fraction = Number(value);
        if (!(TIER_VALUES as readonly string[]).includes(tier ?? '') || !(fraction > 0 && fraction <= 1)) {
          context.addIssue({ code: 'custom', message: `"${entry}": expected <tier>=<fraction>, a tier of ${TIER_VALUES.join(', ')} and a fraction above 0 up to 1` });
          return z.NEVER;
        }
        shares[tier as (typeof TIER_VALUES)[number]] = fraction;
      }
      return shares;
    }),
  /** `best-effort` runs packs where runners cannot get their own namespaces (loudly logged). */
  SVC_RUNNER_SANDBOX: z.enum(['required', 'best-effort']).default('required'),
  SVC_RUNNER_CPU_SECONDS: int(1, 86_400, 3600),
  SVC_RUNNER_OPEN_FILES: int(32, 65_536, 128),
  /** uid and gid of runners when the worker runs as root. */
  SVC_RUNNER_UID: int(1, 2 ** 31 - 1, 65534),
  SVC_RUNNER_LOG_KIB: int(1, 65_536, 64),
  /** The interpreter of Python packs: a name looked up in /usr/bin, /bin, /usr/sbin, /sbin, /usr/local/bin, or a path. */
  SVC_PYTHON: z.string().min(1).default('python3'),
  /** Whether packs that declare `network.egress` get `ctx.fetch` (to public addresses). */
  SVC_PACK_EGRESS: envBoolean.default(true),
  /** CIDRs packs may reach besides public addresses, comma-separated (an internal API). */
  SVC_PACK_EGRESS_ALLOW: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((cidr) => cidr.trim()).filter(Boolean))
    .refine((cidrs) => cidrs.every((cidr) => /^[0-9a-fA-F.:]+\/\d{1,3}$/.test(cidr)), 'must be comma-separated CIDRs such as 10.20.0.0/16'),
});

/** The API process also listens and verifies the gateway's identity tokens. */
export const ExecutionApiEnv = ExecutionEnv.extend({
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: int(0, 65535, 8083),
});

/** The worker listens only for the orchestrator's probes. */
export const ExecutionWorkerEnv = ExecutionEnv.extend({
  SVC_HEALTH_PORT: int(0, 65535, 8090),
  /** The queues this worker takes jobs from, comma-separated: `fast`, or `medium,long` for a Deployment of long workers. */
  SVC_WORKER_QUEUES: z
    .string()
    .default(QUEUES.join(','))
    .transform((text, context) => {
      const named = [...new Set(text.split(',').map((part) => part.trim()).filter(Boolean))];
      const unknown = named.filter((queue) => !(QUEUES as readonly string[]).includes(queue));
      if (named.length === 0 || unknown.length > 0) {
        context.addIssue({ code: 'custom', message: `expected one or more of ${QUEUES.join(', ')}, comma-separated${unknown.length > 0 ? `; not a queue: ${unknown.join(', ')}` : ''}` });
        return z.NEVER;
      }
      return QUEUES.filter((queue) => named.includes(queue)) as Queue[];
    }),
});

export function loadExecutionEnv(source: Record<string, string | undefined>): z.infer<typeof ExecutionEnv> {
  return parseEnv(ExecutionEnv, source);
}

export function loadExecutionApiEnv(source: Record<string, string | undefined>): z.infer<typeof ExecutionApiEnv> {
  return parseEnv(ExecutionApiEnv, source);
}

export function loadExecutionWorkerEnv(source: Record<string, string | undefined>): z.infer<typeof ExecutionWorkerEnv> {
  return parseEnv(ExecutionWorkerEnv, source);
}
