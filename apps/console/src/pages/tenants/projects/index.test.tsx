import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, signIn } from '../../../test/utils';
import TenantsPage from '..';
import { pathOf, project, tenant } from '../testFixtures';
import TenantProjectsPage from '.';

function smallScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('tenant projects on small screens', () => {
  it('opens the project page (cards, back button) instead of the modal', async () => {
    smallScreen();
    mockFetch((call) => {
      const path = pathOf(call);
      if (path === '/portal/rest/spm/user/admin') return { body: tenant('admin', { isAdmin: true, grant: null }) };
      if (path === '/portal/rest/spm/user')
        return { body: [tenant('t1', { name: 'Acme & Co' })], headers: { count: '1' } };
      if (path === '/portal/rest/spm/project') return { body: [project('p1', 't1'), project('p2', 't1')] };
      return undefined;
    });
    signIn();
    renderRoutes(
      [
        { path: '/app/model/User/list', element: <TenantsPage /> },
        { path: '/app/model/User/:id/project', element: <TenantProjectsPage /> },
      ],
      '/app/model/User/list',
    );
    fireEvent.click(await screen.findByTestId('tenant-projects-t1'));
    const page = await screen.findByTestId('tenant-projects-page');
    expect(page.textContent).toContain('Acme & Co的项目');
    expect(screen.queryByTestId('tenant-projects-modal')).toBeNull();
    expect((await screen.findByTestId('tenant-project-p2')).textContent).toContain('Project p2');

    fireEvent.click(screen.getByTestId('tenant-projects-back'));
    await waitFor(() => expect(screen.getByTestId('tenant-row-t1')).toBeTruthy());
  });

  it("is titled with the tenant's name when opened by its address", async () => {
    mockFetch((call) => {
      const path = pathOf(call);
      if (path === '/portal/rest/spm/user/t1') return { body: tenant('t1', { name: 'Acme & Co' }) };
      if (path === '/portal/rest/spm/project') return { body: [project('p1', 't1')] };
      return undefined;
    });
    signIn();
    renderRoutes(
      [{ path: '/app/model/User/:id/project', element: <TenantProjectsPage /> }],
      '/app/model/User/t1/project',
    );
    const page = await screen.findByTestId('tenant-projects-page');
    await waitFor(() => expect(page.textContent).toContain('Acme & Co的项目'));
    expect(page.textContent).not.toContain('t1的项目');
  });
});
