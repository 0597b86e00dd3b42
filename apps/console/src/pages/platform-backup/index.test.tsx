import { sha256Hex } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGIN_MESSAGE_KEY } from '../../services/request';
import { getToken } from '../../services/session';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import PlatformBackupPage from '.';

const BASE = '/portal/rest/platform-backup';
const FILE = { name: 'platform-2026-11-23.zip', size: 3 * 1024 * 1024, createTime: '2026-11-23T08:00:00.000Z' };

describe('platform backup page', () => {
  it('lists the backups with their download links', async () => {
    mockFetch((call) => (call.url === BASE && call.method === 'GET' ? { body: [FILE] } : undefined));
    signIn();
    renderPage(<PlatformBackupPage />, { path: '/app/settings/platform-backup' });
    await waitFor(() => expect(screen.getByText(FILE.name)).toBeTruthy());
    expect(screen.getByText('3.0 MB')).toBeTruthy();
    const link = screen.getByText('下载').closest('a') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(
      `${BASE}/${FILE.name}/download?token=${encodeURIComponent(getToken() ?? '')}`,
    );
  });

  it('restores only with the password, waits for the restore, then signs out', async () => {
    let polls = 0;
    const { calls } = mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET') return { body: [FILE] };
      if (call.url.endsWith('/restore') && call.method === 'POST') return { body: {} };
      if (call.url === `${BASE}/restore-status`) {
        polls++;
        return { body: { state: polls < 2 ? 'restoring' : 'succeeded' } };
      }
      return undefined;
    });
    signIn();
    renderPage(<PlatformBackupPage />, { path: '/app/settings/platform-backup' });
    fireEvent.click(await screen.findByTestId('platform-restore'));
    fireEvent.click(await screen.findByTestId('platform-restore-ok'));
    await waitFor(() => expect(screen.getByText('请输入密码')).toBeTruthy());
    expect(calls.some((call) => call.url.endsWith('/restore'))).toBe(false);

    const field = screen.getByTestId('platform-restore-password');
    const input = field instanceof HTMLInputElement ? field : (field.querySelector('input') as HTMLInputElement);
    fireEvent.change(input, { target: { value: 'Admin12345' } });
    fireEvent.click(screen.getByTestId('platform-restore-ok'));
    await waitFor(() => expect(screen.getByText('正在还原平台，请勿关闭此页面…')).toBeTruthy());
    const restore = calls.find((call) => call.url.endsWith('/restore'));
    expect(restore?.body).toEqual({ password: sha256Hex('Admin12345') });
    await waitFor(() => expect(getToken()).toBeNull(), { timeout: 5000 });
    expect(sessionStorage.getItem(LOGIN_MESSAGE_KEY)).toBe('平台已还原，请重新登录。');
  });
});
