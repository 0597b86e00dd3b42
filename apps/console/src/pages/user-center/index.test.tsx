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
    await screen.findByTestId('user-center-form');
    const shown = {
      'user-username': 'acme',
      'user-name': 'Acme',
      'user-userId': 'acme',
      'user-expiresAt': formatDateTime(TENANT.expiresAt),
    };
    for (const [testId, value] of Object.entries(shown)) {
      const input = screen.getByTestId(testId) as HTMLInputElement;
      expect(input.value, testId).toBe(value);
      expect(input.readOnly, testId).toBe(true);
      // no border, no box: text, not a field to type in
      expect(input.className, testId).toContain('ant-input-borderless');
    }
  });
});
