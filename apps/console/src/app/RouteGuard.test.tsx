import type { LoginResponse } from '@gantry/shared';
import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../routes';
import { ADMIN, renderRoutes, signIn, TENANT } from '../test/utils';
import { RouteGuard, type RouteHandle } from './RouteGuard';

const routes: RouteObject[] = [
  {
    path: '/app',
    element: <RouteGuard />,
    children: [
      { path: 'dashboard', handle: { page: PAGES.dashboard } satisfies RouteHandle, element: <p>dashboard page</p> },
      { path: 'settings', handle: { page: PAGES.settings } satisfies RouteHandle, element: <p>settings page</p> },
      { path: 'model/Project/:id/detail', element: <p>project detail</p> },
    ],
  },
];

function visit(user: LoginResponse | null, path: string) {
  if (user) signIn(user);
  renderRoutes(routes, path);
}

const NO_PERMISSION = '您没有查看该页面权限';

describe('RouteGuard', () => {
  it('shows the page to a user allowed to see it', () => {
    visit(ADMIN, '/app/settings');
    expect(screen.getByText('settings page')).toBeTruthy();
    expect(screen.queryByText(NO_PERMISSION)).toBeNull();
  });

  it('shows the no-permission page for admin-only pages to a tenant', () => {
    visit(TENANT, '/app/settings');
    expect(screen.getByText(NO_PERMISSION)).toBeTruthy();
    expect(screen.queryByText('settings page')).toBeNull();
  });

  it('lets a protectUrl user see only that route', () => {
    const user = { ...TENANT, protectUrl: '/app/model/Project/p1/detail' };
    visit(user, '/app/model/Project/p1/detail');
    expect(screen.getByText('project detail')).toBeTruthy();
  });

  it.each(['/app/dashboard', '/app/model/Project/p2/detail', '/app/settings'])(
    'a protectUrl user gets the no-permission page at %s',
    (path) => {
      visit({ ...ADMIN, protectUrl: '#/app/model/Project/p1/detail' }, path);
      expect(screen.getByTestId('no-permission').textContent).toBe(NO_PERMISSION);
      expect(screen.queryByText(/page$|detail$/)).toBeNull();
    },
  );
});
