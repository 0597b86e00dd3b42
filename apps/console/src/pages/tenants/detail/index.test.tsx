import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../../test/utils';
import { pathOf, project, tenant } from '../testFixtures';
import TenantDetailPage from '.';

describe('tenant detail', () => {
  it('shows the tenant, its grant with what its projects hold, and its projects', async () => {
    mockFetch((call) => {
      const path = pathOf(call);
      if (path === '/portal/rest/spm/user/t1') return { body: tenant('t1', { remarks: 'VIP' }) };
      if (path === '/portal/rest/spm/project') return { body: [project('p1', 't1'), project('p2', 't1')] };
      return undefined;
    });
    signIn();
    renderPage(<TenantDetailPage />, { path: '/app/model/User/:id/detail', url: '/app/model/User/t1/detail' });
    const detail = await screen.findByTestId('tenant-detail');
    expect(detail.textContent).toContain('VIP');
    expect(detail.textContent).toContain('企业');
    expect(detail.textContent).toContain('煤炭');
    const users = await screen.findByTestId('grant-measure-userCount');
    // granted 50; each of the two projects holds 5
    expect(
      within(users)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['用户数', '50', '10']);
    expect(screen.getByTestId('grant-remaining').getAttribute('data-days')).toBe('365');
    expect(await screen.findByTestId('tenant-project-p2')).toBeTruthy();
  });
});
