import { DEFAULT_SETTINGS } from '@gantry/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import RetentionPage from '.';

describe('retention policy', () => {
  it('shows the equivalent days and saves with PATCH {retentionPolicy}', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { body: { ...DEFAULT_SETTINGS, retentionPolicy: { count: 2, unit: 'w' } } };
      return { body: { ...DEFAULT_SETTINGS, ...(call.body as object) } };
    });
    signIn();
    renderPage(<RetentionPage />, { path: '/app/settings/bbs_realtime' });
    expect((await screen.findByTestId('retention-days')).textContent).toBe('相当于 14 天');

    const count = within(screen.getByTestId('retention')).getByRole('spinbutton');
    fireEvent.change(count, { target: { value: '3' } });
    await waitFor(() => expect(screen.getByTestId('retention-days').textContent).toBe('相当于 21 天'));
    fireEvent.click(screen.getByTestId('retention-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/portal/rest/spm/setting');
    expect(patch?.body).toEqual({ retentionPolicy: { count: 3, unit: 'w' } });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('shows the no-permission page when the server answers only the public settings', async () => {
    mockFetch(() => ({ body: { name: 'Gantry', language: 'zh_Hans', logo: '' } }));
    signIn();
    renderPage(<RetentionPage />, { path: '/app/settings/bbs_realtime' });
    expect(await screen.findByText('您没有查看该页面权限')).toBeTruthy();
  });
});
