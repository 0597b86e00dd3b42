import type { LoginResponse } from '@gantry/shared';
import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { currentUser } from '../pages/licence/testFixtures';
import { PAGES } from '../routes';
import { ADMIN, mockFetch, renderRoutes, signIn, TENANT } from '../test/utils';
import { RouteGuard, type RouteHandle } from './RouteGuard';

const routes: RouteObject[] = [
  {
    path: '/app',
    element: <RouteGuard />,
    children: [
      { path: 'dashboard', handle: { page: PAGES.dashboard } satisfies RouteHandle, element: <p>dashboard page</p> },
      { path: 'settings', handle: { page: PAGES.settings } satisfies RouteHandle, element: <p>settings page</p> },
      { path: 'model/Project/:id/detail', element: <p>project detail</p> },
      {
        path: 'model/Licenseinfo/list',
        handle: { page: PAGES.licenceHistory } satisfies RouteHandle,
        element: <p>history page</p>,
      },
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

  it('shows the no-permission page for admin-only pages to a tenant', async () => {
    visit(TENANT, '/app/settings');
    expect(await screen.findByText(NO_PERMISSION)).toBeTruthy();
    expect(screen.queryByText('settings page')).toBeNull();
  });

  it('lets a protectUrl user see only that route', () => {
    const user = { ...TENANT, protectUrl: '/app/model/Project/p1/detail' };
    visit(user, '/app/model/Project/p1/detail');
    expect(screen.getByText('project detail')).toBeTruthy();
  });

  it.each(['/app/dashboard', '/app/model/Project/p2/detail', '/app/settings'])(
    'a protectUrl user gets the no-permission page at %s',
    async (path) => {
      visit({ ...ADMIN, protectUrl: '#/app/model/Project/p1/detail' }, path);
      expect((await screen.findByTestId('no-permission')).textContent).toBe(NO_PERMISSION);
      expect(screen.queryByText(/page$|detail$/)).toBeNull();
    },
  );
});

describe('RouteGuard: rights', () => {
  const withRights = (rights: string[]) =>
    mockFetch((call) => (call.url.endsWith('/login/current/user') ? { body: currentUser({ rights }) } : undefined));

  it('shows a page that needs a right to a user holding it', async () => {
    withRights(['log.view']);
    visit(ADMIN, '/app/model/Licenseinfo/list');
    expect(await screen.findByText('history page')).toBeTruthy();
  });

  it('shows the no-permission page without the right', async () => {
    withRights(['log.export']);
    visit(ADMIN, '/app/model/Licenseinfo/list');
    expect(await screen.findByTestId('no-permission')).toBeTruthy();
    expect(screen.queryByText('history page')).toBeNull();
  });

  it('does not ask for rights on pages that need none', () => {
    const { calls } = withRights([]);
    visit(ADMIN, '/app/settings');
    expect(screen.getByText('settings page')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
