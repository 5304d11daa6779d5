import { Router } from 'express';
import { FunnelQuery, MetricsExportQuery, MetricsSinceQuery, UserJourneysQuery } from '@svc/contracts';
import { parseInput, type Logger } from '@svc/core';
import type { AuditService } from '../services/audit.service.js';
import { adminsAndOwners, audited } from '../audit/audited.js';
import type { MetricsService } from '../services/metrics.service.js';
import { sendCsv, sendJson } from './export.js';

const sinceOf = (since?: string) => (since ? new Date(since) : undefined);

/** `/api/v1/metrics/*` and `/api/v1/admin/metrics/funnel`: platform admins and owners, each request audited. */
export function metricsRoutes(metrics: MetricsService, audit: AuditService, log: Logger): Router {
  const router = Router();
  const route = (path: string, action: string, run: Parameters<typeof audited>[2]['run'], respond?: Parameters<typeof audited>[2]['respond']) =>
    router.get(path, audited(audit, log, { action, gate: adminsAndOwners, run, respond }));

  route('/metrics/onboarding', 'metrics.onboarding', (req) => metrics.onboarding(sinceOf(parseInput(MetricsSinceQuery, req.query, 'query').since)));
  route('/metrics/revenue', 'metrics.revenue', (req) => {
    parseInput(MetricsSinceQuery.pick({}), req.query, 'query');
    return metrics.revenue();
  });
  route('/metrics/usage', 'metrics.usage', (req) => metrics.usage(sinceOf(parseInput(MetricsSinceQuery, req.query, 'query').since)));
  route('/metrics/user-journeys', 'metrics.user-journeys', (req) => {
    const { limit, offset } = parseInput(UserJourneysQuery, req.query, 'query');
    return metrics.userJourneys(limit, offset);
  });
  route(
    '/metrics/export',
    'metrics.export',
    async (req) => {
      const { format, since } = parseInput(MetricsExportQuery, req.query, 'query');
      return { format, rows: metrics.export(sinceOf(since)) };
    },
    async (res, result) => {
      const { format, rows } = result as { format: 'csv' | 'json'; rows: ReturnType<MetricsService['export']> };
      await (format === 'csv' ? sendCsv(res, rows) : sendJson(res, rows));
    },
  );
  route('/admin/metrics/funnel', 'admin.metrics.funnel', (req) => {
    const { interval, since } = parseInput(FunnelQuery, req.query, 'query');
    return metrics.funnel(interval, sinceOf(since));
  });

  return router;
}
