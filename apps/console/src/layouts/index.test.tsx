import type { LicenceInfo } from '@gantry/shared';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { RouteHandle } from '../app/RouteGuard';
import { licenceInfo } from '../pages/licence/testFixtures';
import { PAGES } from '../routes';
import { ADMIN, type MockCall, mockFetch, renderRoutes, signIn, TENANT } from '../test/utils';
import AppLayout from '.';
import { COLLAPSED_KEY } from './AdminLayout';
import { REMINDER_DISMISSED_KEY } from './components/LicenceBanner';

const routes: RouteObject[] = [
  {
    path: '/app',
    element: <AppLayout />,
    children: [
      { path: 'dashboard', handle: { page: PAGES.dashboard } satisfies RouteHandle, element: <p>dashboard page</p> },
      { path: 'settings', handle: { page: PAGES.settings } satisfies RouteHandle, element: <p>settings page</p> },
      { path: 'license', handle: { page: PAGES.licence } satisfies RouteHandle, element: <p>licence page</p> },
      { path: 'settings/ftp', handle: { page: PAGES.ftpSettings } satisfies RouteHandle, element: <p>ftp page</p> },
    ],
  },
];

function api(user = ADMIN, info?: LicenceInfo) {
  return mockFetch((call) => {
    if (call.url === '/portal/rest/license/info' && info) return { body: info };
    if (call.url.endsWith('/setting')) return { body: { name: 'Acme Cloud', language: 'zh_Hans', logo: '' } };
    if (call.url.endsWith('/login/current/user')) {
      const { token: _token, ...profile } = user;
      return { body: profile };
    }
    return undefined;
  });
}

function mobileScreen(matches: boolean) {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

describe('AppLayout', () => {
  it('sends visitors without a session to /login with the redirect', async () => {
    api();
    renderRoutes(routes, '/app/settings');
    expect((await screen.findByTestId('location')).textContent).toBe(
      `/login?redirect=${encodeURIComponent('/app/settings')}`,
    );
  });

  it('gives the administrator the sidebar, whose collapsed state persists', async () => {
    api();
    signIn(ADMIN);
    const first = renderRoutes(routes, '/app/dashboard');
    expect(screen.getByTestId('admin-layout')).toBeTruthy();
    expect(screen.getByText('租户管理')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('header-title').textContent).toContain('Acme Cloud'));
    expect(screen.getByTestId('sider').getAttribute('data-collapsed')).toBe('false');

    const trigger = document.querySelector('.ant-layout-sider-trigger');
    if (!trigger) throw new Error('no sider trigger');
    fireEvent.click(trigger);
    await waitFor(() => expect(screen.getByTestId('sider').getAttribute('data-collapsed')).toBe('true'));
    expect(localStorage.getItem(COLLAPSED_KEY)).toBe('1');

    first.unmount();
    renderRoutes(routes, '/app/dashboard');
    expect(screen.getByTestId('sider').getAttribute('data-collapsed')).toBe('true');
  });

  it('opens the settings submenu when a sub-page is reached by its address (issue 32)', async () => {
    api();
    signIn(ADMIN);
    const { router } = renderRoutes(routes, '/app/dashboard');
    expect(await screen.findByText('dashboard page')).toBeTruthy();
    expect(document.querySelector('.ant-menu-submenu-open')).toBeNull();
    await act(() => router.navigate('/app/settings/ftp'));
    expect(await screen.findByText('ftp page')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ant-menu-submenu-open')?.textContent).toContain('FTP 存储'));
  });

  it('gives a tenant the top bar without the administrator menus', async () => {
    api(TENANT);
    signIn(TENANT);
    renderRoutes(routes, '/app/dashboard');
    expect(screen.getByTestId('tenant-layout')).toBeTruthy();
    expect(screen.getByText('我的项目')).toBeTruthy();
    expect(screen.queryByText('租户管理')).toBeNull();
    expect(screen.getByText('dashboard page')).toBeTruthy();
  });

  it('shows a tenant the no-permission page for administrator pages', async () => {
    api(TENANT);
    signIn(TENANT);
    renderRoutes(routes, '/app/settings');
    expect(await screen.findByText('您没有查看该页面权限')).toBeTruthy();
    expect(screen.queryByText('settings page')).toBeNull();
  });

  it('uses bottom tabs with the common entries on small screens', () => {
    mobileScreen(true);
    api();
    signIn(ADMIN);
    renderRoutes(routes, '/app/dashboard');
    expect(screen.getByTestId('mobile-layout')).toBeTruthy();
    expect(screen.getByTestId('tab-home')).toBeTruthy();
    expect(screen.getByTestId('tab-projects')).toBeTruthy();
    expect(screen.getByTestId('tab-user-center')).toBeTruthy();
    expect(screen.queryByTestId('tab-tenants')).toBeNull();
  });
});

describe('licence banner', () => {
  const REMINDER = licenceInfo({ reminder: true, remainingDays: 6 });
  const infoCalls = (calls: MockCall[]) => calls.filter((c) => c.url === '/portal/rest/license/info');

  it('reminds the administrator when fewer than 14 days remain, until closed for the session', async () => {
    api(ADMIN, REMINDER);
    signIn(ADMIN);
    const first = renderRoutes(routes, '/app/dashboard');
    const banner = await screen.findByTestId('licence-banner-reminder');
    expect(banner.textContent).toContain('授权将在6天后到期（不足14天）');
    fireEvent.click(screen.getByTestId('licence-banner-link'));
    expect(await screen.findByText('licence page')).toBeTruthy();
    // the licence page says it itself
    expect(screen.queryByTestId('licence-banner-reminder')).toBeNull();
    first.unmount();

    renderRoutes(routes, '/app/dashboard');
    const again = await screen.findByTestId('licence-banner-reminder');
    const close = again.querySelector('.ant-alert-close-icon');
    if (!close) throw new Error('no close button');
    fireEvent.click(close);
    await waitFor(() => expect(screen.queryByTestId('licence-banner-reminder')).toBeNull());
    expect(sessionStorage.getItem(REMINDER_DISMISSED_KEY)).toBe(REMINDER.licenceId);
  });

  it('stays closed in this session once closed, but not for another licence', async () => {
    sessionStorage.setItem(REMINDER_DISMISSED_KEY, REMINDER.licenceId);
    const { calls } = api(ADMIN, REMINDER);
    signIn(ADMIN);
    const first = renderRoutes(routes, '/app/dashboard');
    await waitFor(() => expect(infoCalls(calls)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('licence-banner-reminder')).toBeNull();
    first.unmount();

    api(ADMIN, { ...REMINDER, licenceId: 'LIC-NEXT' });
    renderRoutes(routes, '/app/dashboard');
    expect(await screen.findByTestId('licence-banner-reminder')).toBeTruthy();
  });

  it('shows an error with the reason while the licence is not valid', async () => {
    const reason = '该授权属于另一台机器（机器码AAAAA），本机机器码为BBBBB';
    api(ADMIN, licenceInfo({ state: 'otherMachine', reason }));
    signIn(ADMIN);
    renderRoutes(routes, '/app/dashboard');
    const banner = await screen.findByTestId('licence-banner-invalid');
    expect(banner.textContent).toContain('非本机授权');
    expect(banner.textContent).toContain(reason);
    expect(banner.querySelector('.ant-alert-close-icon')).toBeNull();
  });

  it('is not shown to tenants, who do not read the platform licence', async () => {
    const { calls } = api(TENANT, REMINDER);
    signIn(TENANT);
    renderRoutes(routes, '/app/dashboard');
    expect(await screen.findByText('dashboard page')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('licence-banner-reminder')).toBeNull();
    expect(infoCalls(calls)).toHaveLength(0);
  });
});
