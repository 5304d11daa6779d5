import { fileURLToPath } from 'node:url';
import type { Router } from 'express';
import { EventOutbox, type Bus, type Subscription } from '@svc/bus';
import { FLEET_PING_RPC } from '@svc/contracts';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { inbox, outbox } from './db/schema.js';
import { respondToSubscriptionStatus } from './events/subscription.responder.js';
import { consumeUserEvents } from './events/user.consumer.js';
import { billingRoutes } from './http/billing.routes.js';
import { registrationRoutes } from './http/registration.routes.js';
import { webhookRoutes } from './http/webhook.routes.js';
import { BillingService } from './services/billing.service.js';
import { systemClock, type Clock } from './services/clock.js';
import { GraceScheduler } from './services/grace.scheduler.js';
import { RegistrationService } from './services/registration.service.js';
import { SubscriptionService } from './services/subscription.service.js';
import { WebhookService, type WebhookEndpointConfig } from './services/webhook.service.js';
import { createProcessor } from './stripe/processor.js';

export const BILLING_SCHEMA = 'billing';
export const BILLING_MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface BillingConfig {
  stripeSecretKey?: string;
  stripeApiBase: string;
  stripePricePro?: string;
  stripePriceRegistration?: string;
  webhookSecret?: string;
  registrationWebhookSecret?: string;
  registrationReturnUrl: string;
  schedulerIntervalSeconds: number;
  /** Where the SQL migrations are; defaults to this package's `drizzle/`. */
  migrationsFolder?: string;
}

export interface BillingDeps {
  database: Database;
  bus: Bus;
  log: Logger;
  config: BillingConfig;
  /** Tests move time; everything else uses the real clock. */
  clock?: Clock;
  /** How often the outbox relay looks for unsent events (default 5 s); tests shorten it. */
  outboxIntervalMs?: number;
}

export interface BillingServiceHandle {
  routes: Router[];
  /** The webhooks, which read their bodies raw. */
  rootRoutes: Router[];
  scheduler: GraceScheduler;
  events: EventOutbox;
  /** Migrates, consumes user events, starts the grace scheduler and the outbox relay. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createBillingService({ database, bus, log, config, clock = systemClock, outboxIntervalMs }: BillingDeps): BillingServiceHandle {
  const db = database.db;
  const events = new EventOutbox({ db, table: outbox, inbox, bus, log, intervalMs: outboxIntervalMs });
  const processor = createProcessor({ secretKey: config.stripeSecretKey, apiBase: config.stripeApiBase });
  const subscriptions = new SubscriptionService(log);
  const registration = new RegistrationService({ db, bus, processor, config: { price: config.stripePriceRegistration, returnUrl: config.registrationReturnUrl }, clock, log });
  const webhooks = new WebhookService(events, clock, log);
  const scheduler = new GraceScheduler(events, subscriptions, clock, log);
  const consumers: Subscription[] = [];
  const endpoints: { billing: WebhookEndpointConfig; registration: WebhookEndpointConfig } = {
    billing: { endpoint: 'billing', secret: config.webhookSecret, secretVariable: 'SVC_PAYMENT_WEBHOOK_SECRET', handlers: subscriptions.webhookHandlers },
    registration: {
      endpoint: 'registration',
      secret: config.registrationWebhookSecret,
      secretVariable: 'SVC_PAYMENT_WEBHOOK_SECRET_REGISTRATION',
      prepare: registration.webhookPreparations,
      handlers: registration.webhookHandlers,
    },
  };

  return {
    routes: [billingRoutes(new BillingService({ db, processor, pricePro: config.stripePricePro, log, events, clock })), registrationRoutes(registration)],
    rootRoutes: [webhookRoutes(webhooks, endpoints)],
    scheduler,
    events,
    async start() {
      await database.migrate({ migrationsFolder: config.migrationsFolder ?? BILLING_MIGRATIONS, schema: BILLING_SCHEMA });
      consumers.push(await consumeUserEvents(bus, db));
      consumers.push(await bus.respond(FLEET_PING_RPC, async () => ({ service: 'billing' })));
      consumers.push(await respondToSubscriptionStatus(bus, db));
      events.start();
      scheduler.start(config.schedulerIntervalSeconds);
      if (!processor) log.info('billing is not configured (no STRIPE_SECRET_KEY): checkout, portal and paid registration answer 503');
    },
    async stop() {
      await scheduler.stop();
      await Promise.all(consumers.splice(0).map((s) => s.cancel()));
      await events.stop();
    },
  };
}

/** The settings the environment gives. */
export function billingConfigFromEnv(env: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_API_BASE: string;
  STRIPE_PRICE_PRO?: string;
  STRIPE_PRICE_REGISTRATION?: string;
  SVC_PAYMENT_WEBHOOK_SECRET?: string;
  SVC_PAYMENT_WEBHOOK_SECRET_REGISTRATION?: string;
  SVC_REGISTRATION_RETURN_URL: string;
  SVC_BILLING_SCHEDULER_SECONDS: number;
}): BillingConfig {
  return {
    stripeSecretKey: env.STRIPE_SECRET_KEY,
    stripeApiBase: env.STRIPE_API_BASE,
    stripePricePro: env.STRIPE_PRICE_PRO,
    stripePriceRegistration: env.STRIPE_PRICE_REGISTRATION,
    webhookSecret: env.SVC_PAYMENT_WEBHOOK_SECRET,
    registrationWebhookSecret: env.SVC_PAYMENT_WEBHOOK_SECRET_REGISTRATION,
    registrationReturnUrl: env.SVC_REGISTRATION_RETURN_URL,
    schedulerIntervalSeconds: env.SVC_BILLING_SCHEDULER_SECONDS,
  };
}

export { BillingEnv, billingEnv, loadBillingEnv } from './env.js';
export type { Clock } from './services/clock.js';
