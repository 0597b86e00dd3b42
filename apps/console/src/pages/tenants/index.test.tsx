import { sha256Hex, type TableSetting, type TenantView } from '@gantry/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockCall, mockFetch, renderPage, signIn } from '../../test/utils';
import { licenceInfo } from '../licence/testFixtures';
import TenantsPage from '.';
import { listQuery, pathOf, project, tenant } from './testFixtures';

const USER = '/portal/rest/spm/user';
type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };

interface ApiOptions {
  tenants?: TenantView[];
  total?: number;
  tableSettings?: Record<string, TableSetting>;
  other?: (call: MockCall) => Reply | undefined;
}

function api({
  tenants = [tenant('t1'), tenant('t2', { status: false })],
  total,
  tableSettings = {},
  other,
}: ApiOptions = {}) {
  return mockFetch((call) => {
    const path = pathOf(call);
    if (path === `${USER}/admin` && call.method === 'GET') {
      return { body: tenant('admin', { isAdmin: true, grant: null, tableSettings }) };
    }
    if (path === `${USER}/admin` && call.method === 'PATCH') {
      const body = call.body as { tableSettings: Record<string, TableSetting> };
      return { body: tenant('admin', { isAdmin: true, grant: null, tableSettings: body.tableSettings }) };
    }
    if (path === USER && call.method === 'GET') {
      return { body: tenants, headers: { count: String(total ?? tenants.length) } };
    }
    return other?.(call);
  });
}

async function renderList() {
  signIn();
  renderPage(<TenantsPage />, { path: '/app/model/User/list' });
  await screen.findByTestId('tenant-row-t1');
}

const listCalls = (calls: MockCall[]) => calls.filter((c) => pathOf(c) === USER && c.method === 'GET');
const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

describe('tenant list', () => {
  it('asks newest first with paging and count, and pages through the count header', async () => {
    const { calls } = api({ total: 25 });
    await renderList();
    expect(screen.getByTestId('tenant-row-t2').textContent).toContain('Tenant t2');
    expect(headers()).toEqual(['名称', '用户ID', '行业', '类型', '创建时间', '状态', '备注', '操作']);
    const first = listQuery(listCalls(calls)[0] as MockCall);
    expect(first).toMatchObject({ sort: { createTime: -1 }, skip: 0, limit: 10, withCount: true });

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    expect(listQuery(listCalls(calls)[1] as MockCall)).toMatchObject({ skip: 20, limit: 10 });
  });

  it('searches by name with a literal, case-insensitive like', async () => {
    const { calls } = api();
    await renderList();
    const wrapper = screen.getByTestId('tenant-search');
    const search = wrapper instanceof HTMLInputElement ? wrapper : (wrapper.querySelector('input') as HTMLInputElement);
    fireEvent.change(search, { target: { value: 'a.b' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    const filter = listQuery(listCalls(calls)[1] as MockCall).filter as Record<string, unknown>;
    expect(filter.name).toEqual({ like: 'a\\.b' });
  });

  it('disables after confirming, with the toast', async () => {
    const { calls } = api({ other: (c) => (c.url.endsWith('/user/t1/disable') ? { body: tenant('t1') } : undefined) });
    await renderList();
    fireEvent.click(screen.getByTestId('tenant-disable-t1'));
    fireEvent.click(await screen.findByTestId('tenant-disable-confirm'));
    expect(await screen.findByText('禁用成功')).toBeTruthy();
    const call = calls.find((c) => c.url.endsWith('/user/t1/disable'));
    expect(call?.method).toBe('PATCH');
    expect(call?.body).toBeUndefined();
  });

  it('shows the server message when a tenant with projects cannot be deleted', async () => {
    api({
      other: (c) =>
        c.method === 'DELETE'
          ? { status: 409, body: { message: '该租户还有2个项目，请先删除或转移这些项目', code: 'tenantHasProjects' } }
          : undefined,
    });
    await renderList();
    fireEvent.click(screen.getByTestId('tenant-delete-t1'));
    fireEvent.click(await screen.findByTestId('tenant-delete-confirm'));
    expect(await screen.findByText('该租户还有2个项目，请先删除或转移这些项目')).toBeTruthy();
  });

  it('enables with the projects chosen in the dialog, all preselected', async () => {
    const { calls } = api({
      other: (c) => {
        if (pathOf(c) === '/portal/rest/spm/project') return { body: [project('p1', 't2'), project('p2', 't2')] };
        if (c.url.endsWith('/user/t2/enable')) return { body: tenant('t2') };
        return undefined;
      },
    });
    await renderList();
    fireEvent.click(screen.getByTestId('tenant-enable-t2'));
    const dialog = await screen.findByTestId('tenant-enable-dialog');
    await waitFor(() => expect(within(dialog).getAllByRole('checkbox', { checked: true })).toHaveLength(3));
    const projectQuery = listQuery(calls.find((c) => pathOf(c) === '/portal/rest/spm/project') as MockCall);
    expect(projectQuery.filter).toEqual({ user: 't2' });

    fireEvent.click(screen.getByTestId('tenant-enable-project-p2'));
    // The choice is shown before it is confirmed (on a loaded machine the render can lag the click).
    await waitFor(() => expect(within(dialog).getAllByRole('checkbox', { checked: true })).toHaveLength(1));
    fireEvent.click(screen.getByTestId('tenant-enable-confirm'));
    expect(await screen.findByText('Tenant t2启用成功')).toBeTruthy();
    const enable = calls.find((c) => c.url.endsWith('/user/t2/enable'));
    expect(enable?.method).toBe('PATCH');
    expect(enable?.body).toEqual(['p1']);
  });

  it('lists a tenant’s projects in a modal on large screens', async () => {
    api({ other: (c) => (pathOf(c) === '/portal/rest/spm/project' ? { body: [project('p9', 't1')] } : undefined) });
    await renderList();
    fireEvent.click(screen.getByTestId('tenant-projects-t1'));
    const modal = await screen.findByTestId('tenant-projects-modal');
    expect((await within(modal).findByTestId('tenant-project-p9')).textContent).toContain('Project p9');
  });

  it('changes a password in two steps: the administrator’s password first', async () => {
    const { calls } = api({
      other: (c) => {
        if (c.url.endsWith('/user/changepwd')) {
          const ok = (c.body as { password: string }).password === sha256Hex('admin123');
          return ok
            ? { body: { message: '校验成功' } }
            : { status: 400, body: { message: '校验失败，密码不正确', code: 'verifyFailed' } };
        }
        if (c.url.endsWith('/user/t1/password')) return { body: { id: 't1' } };
        return undefined;
      },
    });
    await renderList();
    fireEvent.click(screen.getByTestId('tenant-password-t1'));
    fireEvent.change(await screen.findByTestId('tenant-password-admin'), { target: { value: 'wrong1' } });
    fireEvent.click(screen.getByTestId('tenant-password-verify'));
    expect(await screen.findByText('校验失败，密码不正确')).toBeTruthy();
    expect(screen.queryByTestId('tenant-password-new')).toBeNull();

    fireEvent.change(screen.getByTestId('tenant-password-admin'), { target: { value: 'admin123' } });
    fireEvent.click(screen.getByTestId('tenant-password-verify'));
    const fresh = await screen.findByTestId('tenant-password-new');
    expect(screen.getByTestId('tenant-password-dialog').getAttribute('data-step')).toBe('2');
    fireEvent.change(fresh, { target: { value: 'tenant123' } });
    fireEvent.change(screen.getByTestId('tenant-password-new1'), { target: { value: 'tenant124' } });
    fireEvent.click(screen.getByTestId('tenant-password-submit'));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();

    fireEvent.change(screen.getByTestId('tenant-password-new1'), { target: { value: 'tenant123' } });
    fireEvent.click(screen.getByTestId('tenant-password-submit'));
    expect(await screen.findByText('密码修改成功')).toBeTruthy();
    const put = calls.find((c) => c.url.endsWith('/user/t1/password'));
    expect(put?.method).toBe('PUT');
    expect(put?.body).toEqual({
      adminPassword: sha256Hex('admin123'),
      password: sha256Hex('tenant123'),
      password1: sha256Hex('tenant123'),
    });
  });
});

describe('tenant list preferences', () => {
  it('keeps at least one column and saves the choice on the user record', async () => {
    const { calls } = api();
    await renderList();
    fireEvent.click(screen.getByTestId('column-settings'));
    await screen.findByTestId('column-settings-panel');
    const box = (key: string) => screen.getByTestId(`column-settings-col-${key}`);
    for (const key of ['user', 'industry', 'type', 'createTime', 'status', 'remarks']) fireEvent.click(box(key));
    fireEvent.click(box('name'));
    expect(screen.getByTestId('column-settings-error').textContent).toBe('至少需要选择一个配置项');
    expect((box('name') as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByTestId('column-settings-down-name'));
    fireEvent.click(screen.getByTestId('column-settings-density-compact'));
    fireEvent.click(screen.getByTestId('column-settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH') as MockCall;
    expect(pathOf(patch)).toBe(`${USER}/admin`);
    expect(patch.body).toEqual({
      tableSettings: {
        tenant: {
          columns: ['name'],
          order: ['user', 'name', 'industry', 'type', 'createTime', 'status', 'remarks'],
          density: 'compact',
          pageSize: 10,
        },
      },
    });
    await waitFor(() => expect(headers()).toEqual(['名称', '操作']));
    expect(document.querySelector('.ant-table-small')).not.toBeNull();
  });

  it('refuses a page size below 1', async () => {
    const { calls } = api();
    await renderList();
    fireEvent.click(screen.getByTestId('column-settings'));
    const size = await screen.findByTestId('column-settings-page-size');
    fireEvent.change(size, { target: { value: '' } });
    fireEvent.click(screen.getByTestId('column-settings-save'));
    expect((await screen.findByTestId('column-settings-error')).textContent).toBe('每页条数须为不小于1的整数');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('restores the stored columns, order, density and page size', async () => {
    const { calls } = api({
      tableSettings: {
        tenant: { columns: ['status', 'name'], order: ['status', 'name', 'user'], density: 'loose', pageSize: 5 },
      },
    });
    await renderList();
    // 'industry', 'type', 'createTime' and 'remarks' were never seen by the stored preferences: they show
    expect(headers()).toEqual(['状态', '名称', '行业', '类型', '创建时间', '备注', '操作']);
    expect(listQuery(listCalls(calls)[0] as MockCall)).toMatchObject({ limit: 5 });
    // loose is antd's default (large) size: neither the middle nor the small class
    expect(document.querySelector('.ant-table-middle, .ant-table-small')).toBeNull();
  });
});

describe('add tenant', () => {
  const licence = (reply: Reply) => (call: MockCall) =>
    pathOf(call) === '/portal/rest/license/info' ? reply : undefined;
  const add = () => screen.getByTestId('tenant-add') as HTMLButtonElement;

  it('is disabled with the licence message while the platform has no licence', async () => {
    api({ other: licence({ status: 404, body: { message: '请先上传授权再添加项目', code: 'licenceMissing' } }) });
    await renderList();
    await waitFor(() => expect(add().getAttribute('data-blocked')).toBe('尚未上传平台授权'));
    expect(add().disabled).toBe(true);
  });

  it('is disabled with the reason while the licence is not valid', async () => {
    const reason = '授权已于2026-01-01过期';
    api({ other: licence({ body: licenceInfo({ state: 'expired', reason }) }) });
    await renderList();
    await waitFor(() => expect(add().getAttribute('data-blocked')).toBe(reason));
    expect(add().disabled).toBe(true);
    fireEvent.mouseEnter(add().parentElement ?? add());
    expect(await screen.findByText(reason)).toBeTruthy();
  });

  it('is enabled with a valid licence', async () => {
    api({ other: licence({ body: licenceInfo() }) });
    await renderList();
    await waitFor(() => expect(add().disabled).toBe(false));
    expect(add().getAttribute('data-blocked')).toBeNull();
  });
});
