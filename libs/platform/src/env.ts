import { z } from 'zod';
import { envBoolean } from '@svc/core';
import { tracingEnv } from '@svc/tracing';

/** How long work in flight at SIGTERM gets to finish, unless `SVC_STOP_GRACE_MS` says otherwise. */
export const DEFAULT_STOP_GRACE_MS = 20_000;

/** Variables every process reads to find its infrastructure. Absent URLs mean embedded adapters. */
export const infrastructureEnv = {
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  /** The role that owns the service's schema and runs its migrations; DATABASE_URL's role then only uses the tables. */
  DATABASE_MIGRATION_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  AMQP_URL: z.string().regex(/^amqps?:\/\//, 'must be an amqp:// URL').optional(),
  SVC_DATA_DIR: z.string().default('./.svc-data'),
  /**
   * false: this process applies no migration and waits, up to `SVC_MIGRATION_WAIT_SECONDS`, for
   * the release's migration command (`deploy/migrate`) to have applied them. Embedded PGlite
   * always migrates at start.
   */
  SVC_MIGRATE_AT_START: envBoolean.default(true),
  SVC_MIGRATION_WAIT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** How long a starting process tries to reach its Postgres before it exits; 0 tries once. */
  SVC_DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Prefix of queue and exchange names, so several fleets can share one broker. */
  SVC_BUS_PREFIX: z.string().default(''),
  /** `quorum`: durable queues replicated over the broker's nodes; `classic` (default) keeps queues made before this setting declarable. */
  SVC_BUS_QUEUE_TYPE: z.enum(['quorum', 'classic']).default('classic'),
  /** Prefix of cache keys, so several fleets can share one Redis. */
  SVC_CACHE_PREFIX: z.string().default('svc:'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  /** Where this process serves Prometheus metrics (`GET /metrics`), a port of its own; unset: not served. */
  SVC_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** OpenTelemetry: traces exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (`@svc/tracing`). */
  ...tracingEnv,
  /**
   * How long work in flight at SIGTERM (HTTP requests, bus handlers, running tasks) gets to
   * finish; the process exits at most `STOP_CLOSE_MS` later (see `onShutdown`).
   */
  SVC_STOP_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_STOP_GRACE_MS),
};

/**
 * Where the services that keep files (registry: packages; dashboard: bundles) keep them:
 * `s3://bucket/prefix` (an S3-compatible bucket; `BLOB_STORE_ENDPOINT` for MinIO, R2, Ceph) or
 * `file:///path` (a folder the replicas share); unset, `SVC_DATA_DIR/blobs` of each process.
 */
export const blobStoreEnv = {
  BLOB_STORE_URL: z.string().regex(/^(s3|file):\/\//, 'must be s3://bucket/prefix or file:///path').optional(),
  BLOB_STORE_ENDPOINT: z.string().url().optional(),
};

/** Shared secrets: the access-token key and the gateway → service identity key. */
export const secretsEnv = {
  SVC_JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  SVC_INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters'),
};

type ParsedInfrastructureEnv = z.infer<z.ZodObject<typeof infrastructureEnv>>;
/** Settings whose defaults belong to the libraries they configure: an env built by hand (tests) may leave them out. */
type LibraryDefaulted = 'SVC_BUS_QUEUE_TYPE' | 'SVC_MIGRATE_AT_START' | 'SVC_MIGRATION_WAIT_SECONDS' | 'SVC_DATABASE_WAIT_SECONDS' | 'SVC_STOP_GRACE_MS';
export type InfrastructureEnv = Omit<ParsedInfrastructureEnv, LibraryDefaulted> & Partial<Pick<ParsedInfrastructureEnv, LibraryDefaulted>>;

/** Where clients reach the platform: an http(s) origin without a path, kept without a trailing slash. */
export const PublicUrl = z
  .string()
  .url()
  .refine((value) => /^https?:$/.test(new URL(value).protocol) && new URL(value).pathname === '/' && !new URL(value).search && !new URL(value).hash, 'must be an http(s) origin without a path, e.g. https://svc.example.com')
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * `SVC_PUBLIC_URL`, read by the gateway and identity: where clients reach the platform
 * (`https://svc.example.com`). The OAuth authorization server's issuer, and `<url>/mcp` the
 * resource its tokens are for; a token minted for another URL is refused.
 */
export const publicUrlEnv = {
  SVC_PUBLIC_URL: PublicUrl.default('http://localhost:8080'),
};
