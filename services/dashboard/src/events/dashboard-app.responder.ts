import type { Bus, Subscription } from '@svc/bus';
import { READ_DASHBOARD_APP_RPC } from '@svc/contracts';
import type { DashboardAppService } from '../services/dashboard-app.service.js';

/** Answers `dashboard.app.read`: the execution service's MCP endpoint asks for a command's UI. */
export function respondToDashboardAppRequests(bus: Bus, apps: DashboardAppService): Promise<Subscription> {
  return bus.respond(READ_DASHBOARD_APP_RPC, ({ identity, slug }) => apps.read(identity, slug));
}
