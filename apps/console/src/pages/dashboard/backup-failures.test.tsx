import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '../../services/dashboard';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import DashboardPage from '.';

const BASE: Dashboard = {
  tenants: null,
  projects: { enabled: 1, disabled: 0 },
  licence: null,
  expiring: { tenants: [], projects: [] },
  audit: [],
};

function render(body: Dashboard) {
  mockFetch((call) => (call.url === '/portal/rest/spm/dashboard' ? { body } : undefined));
  signIn();
  renderPage(<DashboardPage />, { path: '/app/dashboard' });
}

afterEach(() => vi.unstubAllGlobals());

describe('dashboard backup failures', () => {
  it('lists failed periodic backups: project (opening its periodic backups), cycle, time, message', async () => {
    render({
      ...BASE,
      backupFailures: [
        {
          projectId: 'p1',
          projectName: 'Plant 1',
          cycleId: 'c1',
          cycleName: 'nightly',
          time: '2026-11-23T02:01:00.000Z',
          message: 'disk full',
        },
      ],
    });
    const item = await screen.findByTestId('dashboard-backup-failure-c1');
    expect(screen.getByTestId('dashboard-backup-failures').textContent).toContain('备份失败');
    expect(item.textContent).toContain('Plant 1');
    expect(item.textContent).toContain('nightly');
    expect(item.textContent).toContain('disk full');
    expect(item.textContent).toMatch(/2026-11-23 \d\d:01:00/);
    expect(item.querySelector('a')?.getAttribute('href')).toBe('/app/db-backup?projectId=p1&tab=cycles');
  });

  it('shows nothing when no periodic backup failed', async () => {
    render({ ...BASE, backupFailures: [] });
    // The answer is shown (its counts), and no failures card with it.
    expect(await screen.findByTestId('dashboard-projects')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-backup-failures')).toBeNull();
  });
});
