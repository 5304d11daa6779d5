import type { EventMessage } from '@svc/bus';
import type { WebhookEventType } from '@svc/contracts';

/** The bus events that become webhook events. */
export const WEBHOOK_SOURCES = [
  'command.executed',
  'task.completed',
  'task.failed',
  'pack.installed',
  'pack.uninstalled',
  'pack.installation.changed',
  'pack.installation.removed',
  'dashboard.deleted',
] as const;

export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

/** What a bus event means to one tenant's webhooks. */
export interface TenantEvent {
  tenantId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/**
 * The webhook event a bus event is, for the tenant it concerns; undefined when it is none (a
 * tenant moving its installation of another's pack to another version). A tenant that installs
 * or removes another tenant's pack hears `pack.installed` / `pack.uninstalled` for its own
 * installation, as the owner does for its pack.
 */
export function webhookEventOf(message: EventMessage<WebhookSource>): TenantEvent | undefined {
  switch (message.name) {
    case 'command.executed': {
      const { command, tenant_id, user_id, duration_ms, task_id, status } = message.payload;
      return { tenantId: tenant_id, type: 'command.executed', data: { command, tenant_id, user_id, duration_ms: Math.round(duration_ms), task_id, status } };
    }
    case 'task.completed':
    case 'task.failed': {
      const { command, tenant_id, user_id, duration_ms, task_id, status, error } = message.payload;
      const data = { task_id, command, tenant_id, user_id, duration_ms: Math.round(duration_ms), status, ...(error ? { error } : {}) };
      return { tenantId: tenant_id, type: message.name, data };
    }
    case 'pack.installed': {
      const { pack_id, tenant_id, user_id, namespace, name, version, previous_version, commands } = message.payload;
      return { tenantId: tenant_id, type: 'pack.installed', data: { pack_id, tenant_id, user_id, pack: `${namespace}/${name}`, version, previous_version, commands } };
    }
    case 'pack.uninstalled': {
      const { pack_id, tenant_id, user_id, namespace, name, version, commands } = message.payload;
      return { tenantId: tenant_id, type: 'pack.uninstalled', data: { pack_id, tenant_id, user_id, pack: `${namespace}/${name}`, version, commands } };
    }
    case 'pack.installation.changed': {
      const { pack_id, tenant_id, user_id, namespace, name, version, previous_version } = message.payload;
      if (previous_version !== null) return undefined;
      return { tenantId: tenant_id, type: 'pack.installed', data: { pack_id, tenant_id, user_id, pack: `${namespace}/${name}`, version, previous_version } };
    }
    case 'pack.installation.removed': {
      const { pack_id, tenant_id, user_id, namespace, name } = message.payload;
      return { tenantId: tenant_id, type: 'pack.uninstalled', data: { pack_id, tenant_id, user_id, pack: `${namespace}/${name}` } };
    }
    case 'dashboard.deleted': {
      const { dashboard_id, tenant_id, scope, name, versions_removed } = message.payload;
      return { tenantId: tenant_id, type: 'dashboard_deleted', data: { dashboard_id, tenant_id, scope, name, versions_removed } };
    }
  }
}
