import type { Router } from 'express';
import type { Subscription } from '@svc/bus';
import { CommandRunQuota } from '@svc/rate-limit';
import { eventOutbox, migrate, type ExecutionDeps } from '../config.js';
import { consumePackChanges } from './events/pack.consumer.js';
import { consumeScheduleProposals } from './events/schedule.consumer.js';
import { consumeReplies, replyQueueName } from './events/task.consumer.js';
import { mcpRoutes } from './http/mcp.routes.js';
import { sandboxRoutes } from './http/sandbox.routes.js';
import { scheduleRoutes } from './http/schedule.routes.js';
import { taskRoutes } from './http/task.routes.js';
import { InputValidator } from './services/input-validator.js';
import { RegistryCatalog } from './services/registry-catalog.js';
import { ReplyWaiters } from './services/reply-waiters.js';
import { SandboxCatalog } from './services/sandbox-catalog.js';
import { SandboxService } from './services/sandbox.service.js';
import { ScheduleClaimer } from './services/schedule-claimer.js';
import { ScheduleService } from './services/schedule.service.js';
import { TaskService } from './services/task.service.js';
import { UsageLimitGate } from './services/usage-limit.js';

/**
 * The API side: `POST /commands/{namespace}/{name}` and the task endpoints. It validates,
 * records the task and queues it; a synchronous caller waits for the worker's reply. Its
 * scheduler fires due schedules' runs (every replica runs one; each tick fires once).
 */
export function createExecutionService(deps: ExecutionDeps): { routes: Router[]; rootRoutes: Router[]; start(): Promise<void>; stop(): Promise<void> } {
  const { database, bus, config } = deps;
  const waiters = new ReplyWaiters();
  const replyQueue = replyQueueName();
  const catalog = new RegistryCatalog(bus);
  const validator = new InputValidator();
  const events = eventOutbox(deps);
  const limits = new UsageLimitGate(deps.cache, deps.log);
  const shared = { db: database.db, bus, events, validator, waiters, limits, settings: { syncWaitMs: config.syncWaitMs, replyQueue, retentionMs: config.retentionMs, detachedJobDelayMs: config.detachedJobDelayMs }, log: deps.log };
  const tasks = new TaskService({ ...shared, catalog });
  // Sandbox runs travel as installed ones do; only where their commands are found differs.
  const sandboxTasks = new TaskService({ ...shared, catalog: new SandboxCatalog(database.db) });
  const clock = config.schedules?.clock ?? (() => new Date());
  const schedules = new ScheduleService({ db: database.db, bus, tasks, clock, log: deps.log, onNextTick: (at) => scheduler.lookAt(at) });
  const scheduler = new ScheduleClaimer({ db: database.db, schedules, clock, log: deps.log, pollMs: config.schedules?.pollMs });
  const subscriptions: Subscription[] = [];
  return {
    routes: [taskRoutes(tasks), sandboxRoutes(new SandboxService(database.db, sandboxTasks)), scheduleRoutes(schedules)],
    rootRoutes: [mcpRoutes({ bus, tasks, quota: new CommandRunQuota(deps.cache, config.rateLimit.storage, config.rateLimit.enabled), version: config.version })],
    async start() {
      await migrate(deps);
      subscriptions.push(await consumeReplies(bus, replyQueue, waiters));
      subscriptions.push(await consumePackChanges(bus, { catalog, validator }));
      subscriptions.push(await consumeScheduleProposals(bus, database.db, schedules));
      events.start();
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await Promise.all(subscriptions.splice(0).map((s) => s.cancel()));
      await events.stop();
      await limits.close();
    },
  };
}

