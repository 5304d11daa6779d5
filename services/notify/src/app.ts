import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import type { Bus, Subscription } from '@svc/bus';
import type { Logger } from '@svc/core';
import { Outbox, type Database, type OutboxDelivery } from '@svc/db';
import { allowList } from '@svc/egress';
import { inbox, outbox } from './db/schema.js';
import type { NotifySettings } from './env.js';
import { consumeEmailRequests } from './events/email.consumer.js';
import { consumeWebhookEvents } from './events/webhook.consumer.js';
import { webhookRoutes } from './http/webhook.routes.js';
import { emailDelivery } from './mail/email-delivery.js';
import { mailTransport, type MailSettings } from './mail/mail-transport.js';
import type { BackoffSettings } from '@svc/core';
import { WebhookDispatcher, type DispatchSettings } from './services/webhook-dispatcher.js';
import { WebhookService } from './services/webhook.service.js';

export const NOTIFY_SCHEMA = 'notify';
export const NOTIFY_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface WebhookSettings extends Omit<DispatchSettings, 'allowed' | 'intervalMs' | 'batchSize'> {
  /** Private ranges endpoints may be in besides public addresses (CIDRs). */
  allowedCidrs: string[];
  /** Plain `http` endpoint URLs too. */
  allowHttp: boolean;
  /** How often due deliveries are looked for (default 1 s). */
  intervalMs?: number;
}

export interface NotifyConfig {
  /** Where e-mails go; without it they wait in `notify.outbox` until a relay is configured. */
  mail?: MailSettings;
  webhooks: WebhookSettings;
  /** Pauses between tries of an e-mail (default 30 s doubling, at most 30 min). */
  emailRetry?: BackoffSettings;
  /** How often the e-mail relay looks for messages due (default 5 s); tests shorten it. */
  mailIntervalMs?: number;
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
}

export interface NotifyDeps {
  database: Database;
  bus: Bus;
  log: Logger;
  config: NotifyConfig;
}

export interface NotifyServiceHandle {
  routes: Router[];
  webhooks: WebhookService;
  dispatcher: WebhookDispatcher;
  /** The e-mails to send (kind `email`); its relay runs between start and stop. */
  outbox: Outbox;
  /** Migrates, consumes the events that become webhooks and e-mails, starts the dispatcher and the e-mail relay. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Retries of deliveries are spread by ±20 %, so that receivers and relays that failed together do
 * not try again together; the spread is narrower than the doubling, so until the cap every gap is
 * longer than the one before it.
 */
const RETRY_JITTER = 0.2;
const EMAIL_RETRY: BackoffSettings = { baseMs: 30_000, capMs: 1_800_000 };
/** Endpoints served at once by one dispatcher pass. */
const DISPATCH_BATCH = 20;

/** Outbound webhooks (signed, retried, per tenant) and the platform's e-mail delivery. */
export function createNotifyService({ database, bus, log, config }: NotifyDeps): NotifyServiceHandle {
  const { db } = database;
  const transport = config.mail ? mailTransport(config.mail, log) : undefined;
  const deliveries: Record<string, OutboxDelivery> = transport ? { email: emailDelivery(transport, { ...(config.emailRetry ?? EMAIL_RETRY), jitter: RETRY_JITTER }) } : {};
  const mailOutbox = new Outbox({ db, table: outbox, inbox, deliveries, log, intervalMs: config.mailIntervalMs });
  const { allowedCidrs, allowHttp, intervalMs, ...dispatch } = config.webhooks;
  const allowed = allowedCidrs.length > 0 ? allowList(allowedCidrs) : undefined;
  const dispatcher = new WebhookDispatcher(db, mailOutbox, { ...dispatch, allowed, intervalMs: intervalMs ?? 1000, batchSize: DISPATCH_BATCH }, log);
  const wake = () => void dispatcher.kick();
  const webhooks = new WebhookService(db, { allowed, allowHttp }, wake);
  const subscriptions: Subscription[] = [];

  return {
    routes: [webhookRoutes(webhooks)],
    webhooks,
    dispatcher,
    outbox: mailOutbox,
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? NOTIFY_MIGRATIONS, schema: NOTIFY_SCHEMA });
      subscriptions.push(await consumeWebhookEvents(bus, db, webhooks, wake), await consumeEmailRequests(bus, mailOutbox));
      dispatcher.start();
      mailOutbox.start();
      if (!config.mail) log.info('e-mail delivery is off (no SMTP_URL): e-mails wait in notify.outbox');
      // Deliveries left due by a previous run go out now rather than after the first interval.
      wake();
    },
    async stop() {
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await dispatcher.stop();
      await mailOutbox.stop();
      transport?.close();
    },
  };
}

/**
 * The settings the environment gives. Without `SMTP_URL`, the embedded mode (no `DATABASE_URL`)
 * writes e-mails as `.eml` files under `SVC_DATA_DIR/mail`; a fleet keeps them queued.
 */
export function notifyConfigFromEnv(env: NotifySettings & { SVC_DATA_DIR: string }, embedded: boolean): Omit<NotifyConfig, 'migrationsFolder'> {
  const from = env.SVC_MAIL_FROM;
  const mail = env.SMTP_URL ? { smtpUrl: env.SMTP_URL, from } : embedded ? { directory: join(env.SVC_DATA_DIR, 'mail'), from } : undefined;
  return {
    mail,
    webhooks: {
      allowedCidrs: env.SVC_WEBHOOK_ALLOWED_CIDRS,
      allowHttp: env.SVC_WEBHOOK_ALLOW_HTTP,
      timeoutMs: env.SVC_WEBHOOK_TIMEOUT_MS,
      maxAttempts: env.SVC_WEBHOOK_MAX_ATTEMPTS,
      retry: { baseMs: env.SVC_WEBHOOK_RETRY_BASE_MS, capMs: env.SVC_WEBHOOK_RETRY_CAP_MS, jitter: RETRY_JITTER },
      disableAfterMs: env.SVC_WEBHOOK_DISABLE_AFTER_MS,
    },
  };
}

export { NotifyEnv, loadNotifyEnv, loadNotifySettings, notifyEnv, type NotifySettings } from './env.js';
