import type { LicenceInfo } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lastDay } from '../../components/GrantSummary';
import { captureDownloads, mockFetch, renderPage, signIn } from '../../test/utils';
import LicencePage from '.';
import { currentUser, licenceInfo, MACHINE, MACHINE_CODE } from './testFixtures';

// the first antd form render of a file is slow in happy-dom
configure({ asyncUtilTimeout: 5000 });

function server({ info, rights = ['log.view', 'log.export'] }: { info: LicenceInfo | null; rights?: string[] }) {
  return mockFetch((call) => {
    const path = call.url.split('?')[0];
    if (path === '/portal/rest/license/info') {
      return info
        ? { body: info }
        : { status: 404, body: { message: '请先上传授权再添加项目', code: 'licenceMissing' } };
    }
    if (path === '/portal/rest/license/machine') return { body: MACHINE };
    if (path === '/portal/rest/spm/login/current/user') return { body: currentUser({ rights }) };
    return undefined;
  });
}

function renderLicence() {
  signIn();
  renderPage(<LicencePage />, { path: '/app/license' });
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('licence page', () => {
  it('shows the grant, its use per measure and the features', async () => {
    const info = licenceInfo();
    server({ info });
    renderLicence();
    const state = await screen.findByTestId('license-state');
    expect(state.textContent).toBe('有效');
    expect(state.getAttribute('data-state')).toBe('valid');
    expect(text('license-licence-id')).toBe('LIC-2026-001');
    expect(text('license-product')).toBe('platform-spm');
    expect(text('license-licensee')).toBe('Acme Industrial');
    expect(text('license-key-id')).toBe('0123456789abcdef');
    expect(screen.queryByTestId('license-development')).toBeNull();
    expect(text('license-start')).toBe(info.grant.startTime);
    expect(text('license-end')).toBe(lastDay(info.grant));
    expect(text('license-validity')).toBe('365天');
    expect(screen.getByTestId('license-remaining').getAttribute('data-days')).toBe('365');
    expect(text('license-features')).toContain('GIS地图');
    expect(text('license-features')).toContain('OAuth登录');

    const users = screen.getByTestId('license-measure-userCount');
    expect(users.textContent).toContain('用户数');
    expect(users.textContent).toContain('已使用 10 / 已分配 40 / 授权 100');
    // allocated 40 % of the grant, used 10 % as the success segment
    expect(users.querySelector('.ant-progress')?.getAttribute('aria-valuenow')).toBe('40');
    expect((users.querySelector('.ant-progress-track-success') as HTMLElement | null)?.style.width).toBe('10%');
    const events = screen.getByTestId('license-measure-eventCount');
    expect(events.getAttribute('data-granted')).toBe('unlimited');
    expect(events.querySelector('.ant-progress')).toBeNull();
    expect(events.textContent?.split('不限')).toHaveLength(2);

    expect(screen.queryByTestId('license-reminder')).toBeNull();
    expect(screen.queryByTestId('license-invalid')).toBeNull();
    expect((await screen.findByTestId('license-machine-code')).textContent).toContain(MACHINE_CODE);
  });

  it('warns when fewer than 14 days remain', async () => {
    server({ info: licenceInfo({ reminder: true, remainingDays: 5 }) });
    renderLicence();
    const reminder = await screen.findByTestId('license-reminder');
    expect(reminder.textContent).toContain('授权将在5天后到期（不足14天）');
    expect(screen.queryByTestId('license-invalid')).toBeNull();
  });

  it('shows an error with the reason while the licence is not valid, and marks a development key', async () => {
    const reason = '授权已于2026-01-01过期';
    server({ info: licenceInfo({ state: 'expired', reason, remainingDays: 0, reminder: true, development: true }) });
    renderLicence();
    const invalid = await screen.findByTestId('license-invalid');
    expect(invalid.textContent).toContain('已过期');
    expect(invalid.textContent).toContain(reason);
    expect(screen.queryByTestId('license-reminder')).toBeNull();
    expect(text('license-state')).toBe('已过期');
    expect(text('license-development')).toBe('开发授权');
  });

  it('copies the machine code', async () => {
    server({ info: licenceInfo() });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderLicence();
    const code = await screen.findByTestId('license-machine-code');
    const copy = code.querySelector('.ant-typography-copy');
    if (!copy) throw new Error('no copy button');
    fireEvent.click(copy);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(MACHINE_CODE));
  });

  it('without a licence shows the machine code and the way to upload one', async () => {
    server({ info: null });
    renderLicence();
    const empty = await screen.findByTestId('license-empty');
    expect(empty.textContent).toContain('尚未上传平台授权');
    expect((await within(empty).findByTestId('license-machine-code')).textContent).toContain(MACHINE_CODE);
    expect(screen.queryByTestId('license-usage')).toBeNull();
    fireEvent.click(screen.getByTestId('license-upload'));
    expect((await screen.findByTestId('location')).textContent).toBe('/app/license/upload');
  });

  it('leads to the services page, and to the history only with log.view', async () => {
    server({ info: licenceInfo(), rights: [] });
    renderLicence();
    await screen.findByTestId('license-state');
    await waitFor(() => expect(screen.getByTestId('license-services')).toBeTruthy());
    expect(screen.queryByTestId('license-history')).toBeNull();
    fireEvent.click(screen.getByTestId('license-services'));
    expect((await screen.findByTestId('location')).textContent).toBe('/app/license/services');
  });

  it('shows the history button with log.view and opens the history', async () => {
    server({ info: licenceInfo() });
    renderLicence();
    fireEvent.click(await screen.findByTestId('license-history'));
    expect((await screen.findByTestId('location')).textContent).toBe('/app/model/Licenseinfo/list');
  });
});

describe('licence application', () => {
  function type(testId: string, value: string) {
    const input = screen.getByTestId(testId);
    fireEvent.change(input, { target: { value } });
  }

  it('checks email and phone, downloads the request file and promises a call within 24 hours', async () => {
    server({ info: licenceInfo() });
    const downloads = captureDownloads();
    renderLicence();
    fireEvent.click(await screen.findByTestId('license-apply'));
    await screen.findByTestId('license-apply-machine-code');
    type('license-apply-company', 'Acme Industrial');
    type('license-apply-contact', 'Li Lei');
    type('license-apply-phone', 'call me');
    type('license-apply-email', 'not-an-email');
    fireEvent.click(screen.getByTestId('license-apply-submit'));
    expect(await screen.findByText('邮箱格式错误')).toBeTruthy();
    expect(screen.getByText('电话格式错误')).toBeTruthy();
    expect(downloads).toHaveLength(0);

    type('license-apply-phone', '+86 138-0000-0000');
    type('license-apply-email', 'li@acme.example');
    type('license-apply-measure-userCount', '50');
    fireEvent.click(screen.getByTestId('license-apply-feature-video'));
    type('license-apply-remarks', 'two sites');
    fireEvent.click(screen.getByTestId('license-apply-submit'));

    const done = await screen.findByTestId('license-apply-done');
    const name = `licence-request-${MACHINE_CODE}.json`;
    expect(done.textContent).toContain(name);
    expect(done.textContent).toContain('24小时内');
    expect(downloads.map((d) => d.name)).toEqual([name]);
    const request = JSON.parse(await (downloads[0]?.blob.text() ?? Promise.resolve('{}')));
    expect(request).toMatchObject({
      format: 'gantry-licence-request/1',
      machineCode: MACHINE_CODE,
      company: 'Acme Industrial',
      contact: 'Li Lei',
      phone: '+86 138-0000-0000',
      email: 'li@acme.example',
      measures: { userCount: 50 },
      features: ['video'],
      remarks: 'two sites',
    });
  });
});
