import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Shapes of the platform's answers, as its OpenAPI document gives them. */
export type User = Schemas['User'];
export type CurrentUser = Schemas['CurrentUser'];
export type Task = Schemas['Task'];
export type StorageEntry = Schemas['StorageEntry'];
export type StorageWrite = Schemas['StorageWrite'];
export type PublishedPack = Schemas['PublishedPack'];
export type InstalledPack = Schemas['InstalledPack'];
export type Dashboard = Schemas['Dashboard'];
export type DashboardVersion = Schemas['DashboardVersion'];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookEvent = Schemas['WebhookEvent'];
export type UsageSummary = Schemas['UsageSummary'];
export type UsageDashboard = Schemas['UsageDashboard'];
export type NewApiKey = Schemas['NewApiKey'];

/** Terminal task statuses: the task will not change any more. */
export const TERMINAL_STATUSES = ['success', 'failure', 'timeout', 'revoked'] as const;

/** The answer of a run that became a task (`202`). */
export interface TaskAccepted {
  task_id: string;
  status: string;
  status_url: string;
  /** `true` when an earlier call with the same `Idempotency-Key` made this task. */
  replayed: boolean;
}
