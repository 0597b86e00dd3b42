import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '../../app/RouteGuard';
import AppLayout from '../../layouts';
import { PAGES } from '../../routes';
import { ADMIN, mockFetch, renderRoutes, signIn, TENANT } from '../../test/utils';

const routes: RouteObject[] = [
  {
    path: '/app',
    element: <AppLayout />,
    children: [
      { path: 'settings', handle: { page: PAGES.settings } satisfies RouteHandle, element: <p>settings page</p> },
      {
        path: 'model/Project/list',
        handle: { page: PAGES.projects } satisfies RouteHandle,
        element: <p>projects page</p>,
      },
    ],
  },
];

function api(user: typeof ADMIN, evaluation: boolean) {
  return mockFetch((call) => {
    if (call.url.endsWith('/setting')) return { body: { name: 'Acme Cloud', language: 'zh_Hans', logo: '' } };
    if (call.url.endsWith('/login/current/user')) {
      const { token: _token, ...profile } = user;
      return { body: { ...profile, evaluation } };
    }
    return undefined;
  });
}

describe('EvaluationBanner', () => {
  it('tells the administrator of an evaluation install', async () => {
    api(ADMIN, true);
    signIn(ADMIN);
    renderRoutes(routes, '/app/settings');
    expect(await screen.findByText('settings page')).toBeTruthy();
    const banner = await screen.findByTestId('evaluation-banner');
    expect(banner.textContent).toContain('GANTRY_LICENCE_PUBLIC_KEYS');
  });

  it("does not show a tenant the administrator's banner (issue 32)", async () => {
    const { calls } = api(TENANT, true);
    signIn(TENANT);
    renderRoutes(routes, '/app/model/Project/list');
    expect(await screen.findByText('projects page')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/login/current/user'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('evaluation-banner')).toBeNull();
  });

  it('is absent once a vendor key is configured', async () => {
    const { calls } = api(ADMIN, false);
    signIn(ADMIN);
    renderRoutes(routes, '/app/settings');
    expect(await screen.findByText('settings page')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/login/current/user'))).toBe(true));
    // Time for the answer to reach the page (the banner shows within this in the test above).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('evaluation-banner')).toBeNull();
  });
});
