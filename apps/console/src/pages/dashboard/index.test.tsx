import { LICENCE_WARNING_DAYS, localDate, viewGrant } from '@gantry/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Dashboard } from '../../services/dashboard';
import { mockFetch, renderPage, signIn, TENANT } from '../../test/utils';
import DashboardPage from '.';
import { EXPIRING_SHOWN } from './components/ExpiringGrants';
import ExpiringPage from './expiring';

const TODAY = localDate(new Date());

const DASHBOARD: Dashboard = {
  tenants: { enabled: 3, disabled: 1 },
  projects: { enabled: 7, disabled: 2 },
  licence: {
    kind: 'platform',
    grant: viewGrant(
      { validityPeriod: 10, startTime: TODAY, userCount: 100, flow: { tableCount: 50 }, features: [] },
      TODAY,
    ),
    measures: [
      { path: 'userCount', granted: 100, allocated: 40, used: 12 },
      { path: 'flow.tableCount', granted: 50, allocated: 20, used: 5 },
      { path: 'dataGathering.point', granted: null, allocated: 300, used: 0 },
    ],
  },
  expiring: {
    tenants: [{ id: 'acme', name: 'Acme', endTime: '2099-01-05', remainingTime: 3 }],
    projects: [{ id: 'p1', name: 'Plant 1', endTime: '2099-01-10', remainingTime: 8 }],
  },
  audit: [
    {
      id: 1,
      at: '2026-03-01T10:00:00.000Z',
      actorId: 'admin',
      actorName: 'Administrator',
      tenantId: 'acme',
      action: 'tenant.disable',
      objectType: 'tenant',
      objectId: 'acme',
      ip: '10.0.0.8',
      detail: { projects: 2 },
    },
  ],
};

function render(body: Dashboard, user = undefined as typeof TENANT | undefined) {
  mockFetch((call) => {
    if (call.url === '/portal/rest/spm/dashboard') return { body };
    if (call.url === '/portal/rest/spm/setting') return { body: { name: 'Acme Cloud' } };
    return undefined;
  });
  signIn(user);
  renderPage(<DashboardPage />, { path: '/app/dashboard' });
}

describe('dashboard', () => {
  it('shows counts, licence use per measure, the 14-day warning, ending grants and recent activity', async () => {
    render(DASHBOARD);
    expect(screen.getByTestId('dashboard').textContent).toContain('欢迎，Administrator');
    expect((await screen.findByTestId('dashboard-tenants-enabled')).getAttribute('data-value')).toBe('3');
    expect(screen.getByTestId('dashboard-tenants-disabled').getAttribute('data-value')).toBe('1');
    expect(screen.getByTestId('dashboard-projects-total').getAttribute('data-value')).toBe('9');
    expect(screen.getByTestId('dashboard-projects-column').className).toContain('ant-col-md-12');

    const users = screen.getByTestId('dashboard-measure-userCount');
    expect(
      within(users)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((c) => c.textContent),
    ).toEqual(['用户数', '100', '40', '12']);
    const points = screen.getByTestId('dashboard-measure-dataGathering.point');
    expect(within(points).getAllByRole('cell')[1]?.textContent).toBe('不限');
    expect(screen.getByTestId('dashboard-remaining').textContent).toContain(`授权剩余不足${LICENCE_WARNING_DAYS}天`);

    expect(screen.getByTestId('dashboard-expiring-tenant-acme').textContent).toContain('Acme');
    expect(screen.getByTestId('dashboard-expiring-project-p1').textContent).toContain('剩余8天');
    const entry = screen.getByTestId('dashboard-audit-1').textContent ?? '';
    for (const part of ['Administrator', '禁用租户', '租户 acme', '10.0.0.8']) expect(entry).toContain(part);
  });

  it('hints that no licence is installed, and gives a tenant no tenant counts', async () => {
    render({ ...DASHBOARD, tenants: null, licence: null, expiring: { tenants: [], projects: [] } }, TENANT);
    expect((await screen.findByTestId('dashboard-no-licence')).textContent).toContain('未授权');
    expect(screen.queryByTestId('dashboard-upload-licence')).toBeNull();
    expect(screen.queryByTestId('dashboard-tenants')).toBeNull();
    expect(screen.getByTestId('dashboard-projects-enabled').getAttribute('data-value')).toBe('7');
    expect(screen.queryByTestId('dashboard-expiring-tenants')).toBeNull();
    // alone in its row, the projects' card fills it (no half-empty row at any width)
    expect(screen.getByTestId('dashboard-projects-column').className).toContain('ant-col-md-24');
  });

  it('tells the administrator to install a licence when there is none', async () => {
    render({ ...DASHBOARD, licence: null });
    expect((await screen.findByTestId('dashboard-no-licence')).textContent).toContain('尚未安装授权');
    expect(screen.getByTestId('dashboard-upload-licence').textContent).toBe('上传授权');
    expect(screen.queryByTestId('dashboard-remaining')).toBeNull();
  });
});

describe('ending grants: the nearest few, and the full list (issue 10)', () => {
  const many = Array.from({ length: 40 }, (_, i) => ({
    id: `p${String(i).padStart(2, '0')}`,
    name: `Plant ${i}`,
    endTime: '2099-01-10',
    // the server's order is not the nearest first
    remainingTime: 14 - (i % 14),
  }));
  const lots: Dashboard = { ...DASHBOARD, expiring: { tenants: DASHBOARD.expiring.tenants, projects: many } };

  it('lists the five nearest projects and links to all of them', async () => {
    render(lots);
    const list = await screen.findByTestId('dashboard-expiring-projects');
    const rows = list.querySelectorAll('li');
    expect(rows).toHaveLength(EXPIRING_SHOWN);
    const days = [...rows].map((row) => Number(/剩余(\d+)天/.exec(row.textContent ?? '')?.[1]));
    expect(days).toEqual([1, 1, 2, 2, 3]);
    expect(list.textContent).toContain('(40)');
    const all = screen.getByTestId('dashboard-expiring-all');
    expect(all.textContent).toBe('查看全部（41）');
    expect(all.getAttribute('href')).toBe('/app/dashboard/expiring');
  });

  it('has no link when everything is shown', async () => {
    render(DASHBOARD);
    await screen.findByTestId('dashboard-expiring-projects');
    expect(screen.queryByTestId('dashboard-expiring-all')).toBeNull();
  });

  it('the full list shows every ending grant, the nearest first', async () => {
    mockFetch((call) => (call.url === '/portal/rest/spm/dashboard' ? { body: lots } : undefined));
    signIn();
    renderPage(<ExpiringPage />, { path: '/app/dashboard/expiring' });
    const table = await screen.findByTestId('expiring-projects');
    await within(table).findByTestId('expiring-project-p13');
    const rows = table.querySelectorAll('tbody tr[data-testid^="expiring-project-"]');
    // 20 a page
    expect(rows).toHaveLength(20);
    expect(rows[0]?.textContent).toContain('剩余1天');
    expect(screen.getByTestId('expiring-tenant-acme').textContent).toContain('Acme');
  });
});
