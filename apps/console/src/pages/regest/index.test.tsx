import { sha256Hex } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage } from '../../test/utils';
import RegestPage from '.';

async function type(testId: string, value: string) {
  fireEvent.change(await screen.findByTestId(testId), { target: { value } });
}

function publicSettings() {
  return { name: 'Gantry', copyright: '', language: 'zh_Hans', logo: '', backgroundImage: '' };
}

describe('regest page', () => {
  it('validates the password with the shared rules and translated messages', async () => {
    mockFetch(() => ({ body: publicSettings() }));
    renderPage(<RegestPage />, { path: '/regest' });

    expect(screen.queryByTestId('regest-password1')).toBeNull();
    fireEvent.click(screen.getByTestId('regest-submit'));
    expect(await screen.findByText('请输入密码')).toBeTruthy();

    await type('regest-password', 'ab1');
    expect(await screen.findByText('密码不能少于6位')).toBeTruthy();
    expect(screen.getByTestId('strength-meter').getAttribute('data-tier')).toBe('weak');

    await type('regest-password', 'abcdefgh');
    expect(await screen.findByText('密码必须包含字母和数字')).toBeTruthy();

    await type('regest-password', `${'a'.repeat(30)}1`);
    expect(await screen.findByText('密码不能多于30位')).toBeTruthy();

    await type('regest-password', 'abc12345');
    await waitFor(() => expect(screen.queryByText('密码必须包含字母和数字')).toBeNull());
    expect(screen.getByTestId('strength-meter').getAttribute('data-tier')).toBe('strong');

    // the repeat field appears once the password is set
    await type('regest-password1', 'abc12346');
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
  });

  it('registers with the hashed password and goes to /login', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('admin/register')) return { body: { message: '管理员账号注册成功' } };
      return { body: publicSettings() };
    });
    renderPage(<RegestPage />, { path: '/regest' });
    await type('regest-password', 'abc12345');
    await type('regest-password1', 'abc12345');
    fireEvent.click(screen.getByTestId('regest-submit'));

    expect(await screen.findByTestId('location')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
    const register = calls.find((c) => c.url === '/portal/rest/spm/admin/register');
    expect(register?.method).toBe('POST');
    expect(register?.body).toEqual({ password: sha256Hex('abc12345') });
    expect(await screen.findByText('管理员账号注册成功')).toBeTruthy();
  });
});
