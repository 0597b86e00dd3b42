import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn, TENANT } from '../../test/utils';
import { formatDateTime } from '../../utils/dateTime';
import UserCenterPage from '.';

describe('personal centre', () => {
  it('shows the profile as read-only text, not as inputs that look editable', async () => {
    const { token: _token, ...current } = TENANT;
    mockFetch((call) => (call.url === '/portal/rest/spm/login/current/user' ? { body: current } : undefined));
    signIn(TENANT);
    renderPage(<UserCenterPage />, { path: '/app/user/center' });
    const profile = await screen.findByTestId('user-center-profile');
    expect(screen.getByTestId('user-username').textContent).toBe('acme');
    expect(screen.getByTestId('user-name').textContent).toBe('Acme');
    expect(screen.getByTestId('user-userId').textContent).toBe('acme');
    expect(screen.getByTestId('user-isAdmin').textContent).toBe('否');
    expect(screen.getByTestId('user-expiresAt').textContent).toBe(formatDateTime(TENANT.expiresAt));
    expect(profile.querySelectorAll('input, button, [role="switch"]')).toHaveLength(0);
  });
});
