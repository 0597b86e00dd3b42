import { sha256Hex } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGIN_MESSAGE_KEY } from '../../services/request';
import { getUser, USER_KEY } from '../../services/session';
import { ADMIN, type MockCall, mockFetch, renderPage } from '../../test/utils';
import LoginPage from '.';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><text>AB12</text></svg>';
const SETTINGS = {
  name: 'Acme Cloud',
  copyright: '© 2026 Acme',
  language: 'zh_Hans',
  logo: '',
  backgroundImage: '/portal/rest/spm/resource/img/bg.png',
  project_logo: '',
  project_backgroundImage: '',
};

type Reply = { status?: number; body?: unknown };

function server(captchaRequired: boolean, onLogin: (call: MockCall) => Reply = () => ({ body: ADMIN })) {
  let captchaCount = 0;
  const mock = mockFetch((call) => {
    if (call.url.startsWith('/portal/rest/spm/login/captcha')) {
      captchaCount += 1;
      return { body: captchaRequired ? { required: true, id: `c${captchaCount}`, svg: SVG } : { required: false } };
    }
    if (call.url === '/portal/rest/spm/login') return onLogin(call);
    if (call.url === '/portal/rest/spm/setting') return { body: SETTINGS };
    return undefined;
  });
  return { ...mock, captchaCalls: () => mock.calls.filter((c) => c.url.includes('login/captcha')).length };
}

function fill(username: string, password: string) {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: username } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
}

describe('login page', () => {
  it('shows the stored message above the form once, and the settings name, title and copyright', async () => {
    sessionStorage.setItem(LOGIN_MESSAGE_KEY, '令牌到期，请重新登录');
    server(false);
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByTestId('login-error').textContent).toContain('令牌到期，请重新登录');
    await waitFor(() => expect(sessionStorage.getItem(LOGIN_MESSAGE_KEY)).toBeNull());
    expect(screen.getByText('空间管理')).toBeTruthy();
    expect(await screen.findByText('Acme Cloud')).toBeTruthy();
    expect(screen.getByTestId('copyright').textContent).toBe('© 2026 Acme');
    await waitFor(() =>
      expect(screen.getByTestId('auth-shell').getAttribute('data-background')).toBe(SETTINGS.backgroundImage),
    );
  });

  it('shows no error and no code field when nothing asks for them', async () => {
    const { captchaCalls } = server(false);
    renderPage(<LoginPage />, { path: '/login' });
    await waitFor(() => expect(captchaCalls()).toBe(1));
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(screen.queryByTestId('login-code')).toBeNull();
  });

  it('shows the verification code image and field when required; clicking the image fetches a new one', async () => {
    const { captchaCalls } = server(true);
    renderPage(<LoginPage />, { path: '/login' });
    const image = (await screen.findByTestId('login-captcha')) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe(`data:image/svg+xml;utf8,${encodeURIComponent(SVG)}`);
    expect(screen.getByTestId('login-code')).toBeTruthy();
    const before = captchaCalls();
    fireEvent.click(image);
    await waitFor(() => expect(captchaCalls()).toBe(before + 1));
  });

  it('requires username, password (max 30) and the code', async () => {
    server(true);
    renderPage(<LoginPage />, { path: '/login' });
    await screen.findByTestId('login-code');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('请输入用户名')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'a1'.repeat(16) } });
    expect(await screen.findByText('密码不能多于30位')).toBeTruthy();
  });

  it('signs in with the hashed password and code, remembers the user and honours redirect', async () => {
    const { calls } = server(true);
    renderPage(<LoginPage />, { path: '/login', url: `/login?redirect=${encodeURIComponent('/app/settings')}` });
    await screen.findByTestId('login-code');
    fill('admin', 'abc12345');
    fireEvent.change(screen.getByTestId('login-code'), { target: { value: 'AB12' } });
    fireEvent.click(screen.getByTestId('login-remember'));
    fireEvent.click(screen.getByTestId('login-submit'));

    expect((await screen.findByTestId('location')).textContent).toBe('/app/settings');
    const login = calls.find((c) => c.url === '/portal/rest/spm/login');
    expect(login?.method).toBe('POST');
    expect(login?.body).toEqual({
      username: 'admin',
      password: sha256Hex('abc12345'),
      code: 'AB12',
      codeId: 'c1',
      remenber: true,
    });
    expect(getUser()?.token).toBe(ADMIN.token);
    expect(localStorage.getItem(USER_KEY)).not.toBeNull();
    expect(sessionStorage.getItem(USER_KEY)).toBeNull();
  });

  it('shows a 400 `user` field above the form and other fields on their inputs, then refetches the captcha', async () => {
    const { captchaCalls } = server(false, () => ({
      status: 400,
      body: { message: '用户名或密码错误', code: 'badCredentials', fields: { user: '用户名或密码错误' } },
    }));
    renderPage(<LoginPage />, { path: '/login' });
    await waitFor(() => expect(captchaCalls()).toBe(1));
    fill('admin', 'wrong123');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-error')).textContent).toContain('用户名或密码错误');
    await waitFor(() => expect(captchaCalls()).toBe(2));
    expect(getUser()).toBeNull();
  });

  it('shows a 451 code error on the code field', async () => {
    server(true, () => ({
      status: 451,
      body: { message: '验证码错误或已过期', code: 'captchaInvalid', fields: { code: '验证码错误或已过期' } },
    }));
    renderPage(<LoginPage />, { path: '/login' });
    await screen.findByTestId('login-code');
    fill('admin', 'abc12345');
    fireEvent.change(screen.getByTestId('login-code'), { target: { value: 'XXXX' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('验证码错误或已过期')).toBeTruthy();
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  it('toasts other login errors, with a fallback text', async () => {
    server(false, () => ({ status: 500, body: {} }));
    renderPage(<LoginPage />, { path: '/login' });
    fill('admin', 'abc12345');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('服务器出错了')).toBeTruthy();
  });
});

describe('single sign-on on the login page (issue 34 §1)', () => {
  const TENANT = { ...ADMIN, id: 'acme', username: 'acme', userId: 'acme', name: 'Acme', isAdmin: false, token: 't' };

  function ssoServer(options: { enabled: boolean; tenantPasswordLogin?: boolean }) {
    return mockFetch((call) => {
      if (call.url.startsWith('/portal/rest/spm/login/captcha')) return { body: { required: false } };
      if (call.url === '/portal/rest/spm/setting') return { body: SETTINGS };
      if (call.url === '/portal/rest/spm/login/sso') {
        return {
          body: {
            enabled: options.enabled,
            buttonName: options.enabled ? 'Plant login' : '',
            tenantPasswordLogin: options.tenantPasswordLogin ?? true,
          },
        };
      }
      if (call.url === '/portal/rest/spm/login/sso/ticket') {
        return (call.body as { ticket: string }).ticket === 'good'
          ? { body: { ...TENANT, returnPath: '/app/model/Project/list' } }
          : { status: 400, body: { code: 'ssoFailed', message: 'Single sign-on failed or expired' } };
      }
      return undefined;
    });
  }

  it('shows the button with its name beside the password form, linking to the server’s start', async () => {
    ssoServer({ enabled: true, tenantPasswordLogin: false });
    renderPage(<LoginPage />, { path: '/login', url: '/login?redirect=%2Fapp%2Faudit' });
    const button = await screen.findByTestId('login-sso');
    expect(button.textContent).toBe('Plant login');
    expect(button.getAttribute('href')).toBe('rest/spm/login/sso/start?return=%2Fapp%2Faudit');
    expect(screen.getByTestId('login-submit')).toBeTruthy();
    expect(screen.getByTestId('login-sso-admin-only')).toBeTruthy();
  });

  it('shows no button when single sign-on is off', async () => {
    const { calls } = ssoServer({ enabled: false });
    renderPage(<LoginPage />, { path: '/login' });
    await waitFor(() => expect(calls.some((c) => c.url === '/portal/rest/spm/login/sso')).toBe(true));
    expect(screen.queryByTestId('login-sso')).toBeNull();
  });

  it('trades the ticket for the session and lands on the route it started from', async () => {
    const { calls } = ssoServer({ enabled: true });
    renderPage(<LoginPage />, { path: '/login', url: '/login?sso=good' });
    await waitFor(() => expect(getUser()?.id).toBe('acme'));
    expect(calls.find((c) => c.url === '/portal/rest/spm/login/sso/ticket')?.body).toEqual({ ticket: 'good' });
  });

  it('says why the provider’s answer was refused', async () => {
    ssoServer({ enabled: true });
    renderPage(<LoginPage />, { path: '/login', url: '/login?ssoError=ssoUnknownAccount' });
    expect((await screen.findByTestId('login-error')).textContent).toBe('该账号未在本平台开通，请联系管理员');
  });
});
