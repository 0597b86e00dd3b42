import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { RouteHandle } from '../app/RouteGuard';
import { PAGES } from '../routes';
import { ADMIN, mockFetch, renderRoutes, signIn, TENANT } from '../test/utils';
import AppLayout from '.';
import { COLLAPSED_KEY } from './AdminLayout';

const routes: RouteObject[] = [
  {
    path: '/app',
    element: <AppLayout />,
    children: [
      { path: 'dashboard', handle: { page: PAGES.dashboard } satisfies RouteHandle, element: <p>dashboard page</p> },
      { path: 'settings', handle: { page: PAGES.settings } satisfies RouteHandle, element: <p>settings page</p> },
    ],
  },
];

function api(user = ADMIN) {
  return mockFetch((call) => {
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

  it('gives a tenant the top bar without the administrator menus', async () => {
    api(TENANT);
    signIn(TENANT);
    renderRoutes(routes, '/app/dashboard');
    expect(screen.getByTestId('tenant-layout')).toBeTruthy();
    expect(screen.getByText('我的项目')).toBeTruthy();
    expect(screen.queryByText('租户管理')).toBeNull();
    expect(screen.getByText('dashboard page')).toBeTruthy();
  });

  it('shows a tenant the no-permission page for administrator pages', () => {
    api(TENANT);
    signIn(TENANT);
    renderRoutes(routes, '/app/settings');
    expect(screen.getByText('您没有查看该页面权限')).toBeTruthy();
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
