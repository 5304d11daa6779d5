import { describe, expect, it } from 'vitest';
import type { DashboardWithActive } from '../repositories/dashboard.repository.js';
import { RecentDashboards } from './recent-dashboards.js';

const row = (id: string) => ({ dashboard: { id } }) as unknown as DashboardWithActive;

describe('dashboards recently read by slug', () => {
  it('answers from memory within its time, and reads again after it', async () => {
    let now = 0;
    const recent = new RecentDashboards(2000, () => now);
    let loads = 0;
    const load = async () => (loads++, row('d1'));
    await recent.get('sales', load);
    now = 1999;
    await recent.get('sales', load);
    expect(loads).toBe(1);
    now = 2000;
    await recent.get('sales', load);
    expect(loads).toBe(2);
  });

  it('keeps no answer for a slug without a dashboard, and forgets one it is told of', async () => {
    const recent = new RecentDashboards(2000, () => 0);
    expect(await recent.get('sales', async () => undefined)).toBeUndefined();
    expect((await recent.get('sales', async () => row('d1')))?.dashboard.id).toBe('d1');
    recent.forget('sales');
    expect((await recent.get('sales', async () => row('d2')))?.dashboard.id).toBe('d2');
  });
});
