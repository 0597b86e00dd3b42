import type { FtpSettings } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import FtpSettingsPage from '.';

const URL = '/portal/rest/db-backup/ftp-settings';
const STORED: FtpSettings = {
  enabled: true,
  host: 'ftp.example.com',
  port: 21,
  user: 'backup',
  passwordSet: true,
  remoteFolder: '/gantry',
  tls: 'explicit',
  passive: true,
  allowUntrustedCertificate: false,
};

function input(testId: string): HTMLInputElement {
  const element = screen.getByTestId(testId);
  return (element instanceof HTMLInputElement ? element : element.querySelector('input')) as HTMLInputElement;
}

describe('FTP storage settings', () => {
  it('shows the stored settings without the password and saves without it when left empty', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { body: STORED };
      if (call.method === 'PUT') return { body: { ...STORED, ...(call.body as object), passwordSet: true } };
      return undefined;
    });
    signIn();
    renderPage(<FtpSettingsPage />, { path: '/app/settings/ftp' });
    await waitFor(() => expect(input('ftp-host').value).toBe('ftp.example.com'));
    expect(input('ftp-password').value).toBe('');
    expect(input('ftp-password').placeholder).toBe('已保存（留空则不变）');
    // TLS chosen: the certificate option is offered; passive mode is shown as always on.
    expect(screen.getByTestId('ftp-untrusted')).toBeTruthy();
    expect((screen.getByTestId('ftp-passive') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(input('ftp-folder'), { target: { value: '/backups/plant' } });
    fireEvent.click(screen.getByTestId('ftp-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe(URL);
    expect(put?.body).toEqual({
      enabled: true,
      host: 'ftp.example.com',
      port: 21,
      user: 'backup',
      remoteFolder: '/backups/plant',
      tls: 'explicit',
      allowUntrustedCertificate: false,
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('tests the connection with the typed password and says what failed, then that it worked', async () => {
    let answer = {
      ok: false,
      failure: 'login',
      message:
        'The FTP server ftp.example.com:21 refused the user name or password. The server answered: 530 Login incorrect.',
    } as object;
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { body: { ...STORED, tls: 'none', passwordSet: false } };
      if (call.url === `${URL}/test`) return { body: answer };
      return undefined;
    });
    signIn();
    renderPage(<FtpSettingsPage />, { path: '/app/settings/ftp' });
    await waitFor(() => expect(input('ftp-host').value).toBe('ftp.example.com'));
    expect(screen.queryByTestId('ftp-untrusted')).toBeNull();
    fireEvent.change(input('ftp-password'), { target: { value: 's3cret' } });
    fireEvent.click(screen.getByTestId('ftp-test'));
    const result = await screen.findByTestId('ftp-test-result');
    expect(result.textContent).toContain('连接失败：用户名或密码错误');
    expect(result.textContent).toContain('530 Login incorrect');
    const test = calls.find((c) => c.url === `${URL}/test`);
    expect(test?.method).toBe('POST');
    expect(test?.body).toMatchObject({ host: 'ftp.example.com', password: 's3cret', tls: 'none' });

    answer = {
      ok: true,
      message: 'Connected to ftp.example.com:21, logged in, and wrote, read and deleted a file in "/gantry".',
    };
    fireEvent.click(screen.getByTestId('ftp-test'));
    await waitFor(() => expect(screen.getByTestId('ftp-test-result').textContent).toContain('连接成功'));
    expect(screen.getByTestId('ftp-test-result').textContent).toContain('wrote, read and deleted');
  });

  it('shows the server refusal beside its field', async () => {
    mockFetch((call) => {
      if (call.method === 'GET') return { body: { ...STORED, passwordSet: false } };
      if (call.method === 'PUT') {
        return {
          status: 400,
          body: { code: 'validation', message: '请输入 FTP 密码', fields: { password: '请输入 FTP 密码' } },
        };
      }
      return undefined;
    });
    signIn();
    renderPage(<FtpSettingsPage />, { path: '/app/settings/ftp' });
    await waitFor(() => expect(input('ftp-host').value).toBe('ftp.example.com'));
    fireEvent.click(screen.getByTestId('ftp-save'));
    expect(await screen.findByText('请输入 FTP 密码')).toBeTruthy();
  });
});
