import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '../../app/RouteGuard';
import i18n from '../../i18n';
import { PAGES } from '../../routes';
import { ADMIN, mockFetch, renderRoutes, signIn } from '../../test/utils';
import AppLayout from '..';
import { helpHref } from './HelpLink';

const routes: RouteObject[] = [
  {
    path: '/app',
    element: <AppLayout />,
    children: [
      { path: 'dashboard', handle: { page: PAGES.dashboard } satisfies RouteHandle, element: <p>dashboard page</p> },
    ],
  },
];

function api(helpUrl?: string) {
  return mockFetch((call) => {
    if (call.url.endsWith('/setting')) return { body: { name: 'Acme Cloud', language: 'zh_Hans', logo: '', helpUrl } };
    if (call.url.endsWith('/login/current/user')) {
      const { token: _token, ...profile } = ADMIN;
      return { body: profile };
    }
    return undefined;
  });
}

const helpLink = async () => (await screen.findByTestId('menu-help')) as HTMLAnchorElement;

describe('Help (issue 10)', () => {
  it('opens the shipped guide in the language shown, in a new window', async () => {
    api('/guide/');
    signIn(ADMIN);
    renderRoutes(routes, '/app/dashboard');
    const link = await helpLink();
    await waitFor(() => expect(link.getAttribute('href')).toBe('/guide/?lang=zh_Hans'));
    expect(link.target).toBe('_blank');
    expect(link.rel).toContain('noopener');
    expect(link.textContent).toBe('帮助文档');
  });

  it('follows the language the user picks', async () => {
    api('/guide/');
    signIn(ADMIN);
    renderRoutes(routes, '/app/dashboard');
    await helpLink();
    await i18n.changeLanguage('en');
    await waitFor(async () => expect((await helpLink()).getAttribute('href')).toBe('/guide/?lang=en'));
  });

  it('opens the address configured in settings instead', async () => {
    api('https://help.example.com/gantry');
    signIn(ADMIN);
    renderRoutes(routes, '/app/dashboard');
    const link = await helpLink();
    await waitFor(() => expect(link.getAttribute('href')).toBe('https://help.example.com/gantry'));
  });

  it('falls back to the guide when settings do not say (older server, signed-out read)', () => {
    expect(helpHref(undefined, 'zh_Hans')).toBe('/guide/?lang=zh_Hans');
    expect(helpHref('', 'en')).toBe('/guide/?lang=en');
    expect(helpHref('/docs/help.html', 'en')).toBe('/docs/help.html');
  });
});
