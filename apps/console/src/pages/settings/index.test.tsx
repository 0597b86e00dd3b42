import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '@gantry/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockCall, mockFetch, renderPage, signIn } from '../../test/utils';
import SettingsPage from '.';

const LOADED: Settings = normalizeSettings({
  ...DEFAULT_SETTINGS,
  name: 'Acme Cloud',
  loginDuration: { count: 30, unit: 'm' },
  mediaLibrary: { publicDirEnable: true, publicDirFeature: ['mkDir', 'upload'] },
});

function server(onSave: (call: MockCall) => { status?: number; body?: unknown } = (call) => ({ body: call.body })) {
  return mockFetch((call) => {
    if (call.url !== '/portal/rest/spm/setting') return undefined;
    if (call.method === 'GET') return { body: LOADED };
    return onSave(call);
  });
}

async function renderSettings() {
  signIn();
  renderPage(<SettingsPage />, { path: '/app/settings' });
  return screen.findByTestId('settings-form');
}

function countInput(testId: string): HTMLInputElement {
  const input = within(screen.getByTestId(testId)).getAllByRole('spinbutton')[0];
  if (!(input instanceof HTMLInputElement)) throw new Error(`no count input in ${testId}`);
  return input;
}

function savedBody(calls: MockCall[]): Settings {
  const put = calls.find((c) => c.method === 'PUT');
  if (!put) throw new Error('no PUT');
  return put.body as Settings;
}

describe('basic settings', () => {
  it('loads the settings into the form', async () => {
    server();
    await renderSettings();
    expect((screen.getByTestId('settings-name') as HTMLInputElement).value).toBe('Acme Cloud');
    expect(countInput('settings-login-duration').value).toBe('30');
    const features = screen.getByTestId('settings-public-dir-feature');
    expect(within(features).getAllByRole('checkbox', { checked: true })).toHaveLength(2);
  });

  it('clears the folder permissions when the public folder is turned off', async () => {
    const { calls } = server();
    await renderSettings();
    fireEvent.click(screen.getByTestId('settings-public-dir'));
    await waitFor(() => expect(screen.queryByTestId('settings-public-dir-feature')).toBeNull());

    fireEvent.click(screen.getByTestId('settings-public-dir'));
    const features = await screen.findByTestId('settings-public-dir-feature');
    expect(within(features).getAllByRole('checkbox')).toHaveLength(4);
    expect(within(features).queryAllByRole('checkbox', { checked: true })).toHaveLength(0);

    fireEvent.click(screen.getByTestId('settings-public-dir'));
    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(savedBody(calls).mediaLibrary).toEqual({ publicDirEnable: false, publicDirFeature: [] });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('applies the 10-minute floor to the login duration on blur', async () => {
    const { calls } = server();
    await renderSettings();
    const input = countInput('settings-login-duration');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.blur(input);
    await waitFor(() => expect(countInput('settings-login-duration').value).toBe('10'));

    // the floor is for minutes only: other counts are left alone
    const freeze = countInput('settings-freeze');
    fireEvent.focus(freeze);
    fireEvent.change(freeze, { target: { value: '5' } });
    fireEvent.blur(freeze);
    await waitFor(() => expect(countInput('settings-freeze').value).toBe('5'));

    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = savedBody(calls);
    expect(body.loginDuration).toEqual({ count: 10, unit: 'm', time: 600 });
    expect(body.errorLogin.duration).toEqual({ count: 5, unit: 'm', interval: 300 });
    // what the form does not edit is sent back as loaded
    expect(body.retentionPolicy).toEqual(LOADED.retentionPolicy);
    expect(body.enableCors).toBe(LOADED.enableCors);
  });

  it('requires the system name', async () => {
    const { calls } = server();
    await renderSettings();
    fireEvent.change(screen.getByTestId('settings-name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('系统名称不能为空')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('shows server field errors (dotted paths) on their fields', async () => {
    server(() => ({
      status: 400,
      body: {
        message: '请求参数错误',
        code: 'validation',
        fields: { 'errorLogin.count': 'settings.countMin0', 'loginDuration.count': '请输入大于等于1的整数' },
      },
    }));
    await renderSettings();
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('最小值为0')).toBeTruthy();
    expect(await screen.findByText('请输入大于等于1的整数')).toBeTruthy();
  });

  it('edits the project port range: lowest first, within 5001-65535, sent with the settings', async () => {
    const { calls } = server();
    await renderSettings();
    const input = (testId: string) => {
      const found = within(screen.getByTestId(testId).parentElement ?? document.body).getByRole('spinbutton');
      if (!(found instanceof HTMLInputElement)) throw new Error(`no input ${testId}`);
      return found;
    };
    const type = (testId: string, value: string) => {
      const field = input(testId);
      fireEvent.focus(field);
      fireEvent.change(field, { target: { value } });
      fireEvent.blur(field);
    };
    expect(input('settings-site-port-min').value).toBe('5001');
    expect(input('settings-site-port-max').value).toBe('65535');
    type('settings-site-port-min', '30000');
    type('settings-site-port-max', '20000');
    fireEvent.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('最小端口不能大于最大端口')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    type('settings-site-port-max', '39999');
    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(savedBody(calls).sitePorts).toEqual({ min: 30000, max: 39999 });
  });
});
