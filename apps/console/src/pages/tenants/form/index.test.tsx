import { sha256Hex } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockCall, mockFetch, renderRoutes, signIn } from '../../../test/utils';
import { pathOf, TENANT_GRANT, TENANT_POOL, TODAY, tenant } from '../testFixtures';
import TenantFormPage from '.';

const USER = '/portal/rest/spm/user';
type Reply = { status?: number; body?: unknown };

function api(onSave: (call: MockCall) => Reply = () => ({ body: tenant('acme', { name: 'Acme' }) })) {
  return mockFetch((call) => {
    const path = pathOf(call);
    if (path === '/portal/rest/spm/login/current/unUse/license') return { body: TENANT_POOL };
    if (path === `${USER}/t1` && call.method === 'GET') {
      return {
        body: tenant('t1', {
          remarks: 'old remarks',
          permissions: { ownTemplates: true, marketTemplates: false, blankProjects: true },
        }),
      };
    }
    if ((path === USER && call.method === 'POST') || (path === `${USER}/t1` && call.method === 'PATCH'))
      return onSave(call);
    return undefined;
  });
}

function open(url: string) {
  signIn();
  renderRoutes(
    [
      { path: '/app/model/User/add', element: <TenantFormPage /> },
      { path: '/app/model/User/:id/edit', element: <TenantFormPage /> },
    ],
    url,
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

async function chooseIndustry(label: string) {
  const select = screen.getByTestId('tenant-form-industry');
  const combobox = select.matches('[role="combobox"]') ? select : (select.querySelector('[role="combobox"]') ?? select);
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByTitle(label));
}

/** Everything required on the add page except the passwords. */
async function fillRequired() {
  await screen.findByTestId('grant-form');
  type('tenant-form-id', 'acme');
  type('tenant-form-name', 'Acme');
  await chooseIndustry('煤炭');
  type('grant-validityPeriod', '30');
  type('grant-userCount', '10');
  type('grant-flow-tableCount', '20');
}

/** Validating the whole form (the grant checks included) takes a while under happy-dom. */
const SLOW = { timeout: 5000 };

const saveCall = (calls: MockCall[]) => calls.find((c) => c.method === 'POST' || c.method === 'PATCH');

describe('tenant form', { timeout: 40_000 }, () => {
  it('adds a tenant: repeat password shown once a password is set, passwords hashed, grant from the form', async () => {
    const { calls } = api();
    open('/app/model/User/add');
    await fillRequired();
    expect(screen.queryByTestId('tenant-form-password1')).toBeNull();
    type('tenant-form-password', 'secret12');
    await screen.findByTestId('tenant-form-password1');
    type('tenant-form-password1', 'secret13');
    fireEvent.click(screen.getByTestId('tenant-form-submit'));
    expect(await screen.findByText('两次输入的密码不一致', {}, SLOW)).toBeTruthy();
    expect(saveCall(calls)).toBeUndefined();

    type('tenant-form-password1', 'secret12');
    fireEvent.click(screen.getByTestId('tenant-form-submit'));
    expect(await screen.findByText('保存租户成功', {}, SLOW)).toBeTruthy();
    const post = saveCall(calls) as MockCall;
    expect(post.method).toBe('POST');
    expect(post.body).toMatchObject({
      id: 'acme',
      name: 'Acme',
      type: 0,
      industry: 'coal',
      permissions: { ownTemplates: true, marketTemplates: true, blankProjects: true },
      password: sha256Hex('secret12'),
      password1: sha256Hex('secret12'),
      grant: { validityPeriod: 30, startTime: TODAY, userCount: 10, flow: { tableCount: 20 }, features: [] },
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/app/model/User/list'), SLOW);
  });

  it('checks the user id rule and requires the password on add', async () => {
    const { calls } = api();
    open('/app/model/User/add');
    await fillRequired();
    type('tenant-form-id', 'Bad Id');
    fireEvent.click(screen.getByTestId('tenant-form-submit'));
    expect(
      await screen.findByText('用户ID须以小写字母开头，只能包含小写字母、数字、下划线和连字符（3-32位）', {}, SLOW),
    ).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(saveCall(calls)).toBeUndefined();
  });

  it('puts server field errors (id, grant.userCount) on their fields', async () => {
    api(() => ({
      status: 400,
      body: {
        message: '用户数不能大于授权用户数',
        code: 'grantInvalid',
        fields: { 'grant.userCount': '用户数不能大于授权用户数', id: 'tenant.idTaken' },
      },
    }));
    open('/app/model/User/add');
    await fillRequired();
    type('tenant-form-password', 'secret12');
    await screen.findByTestId('tenant-form-password1');
    type('tenant-form-password1', 'secret12');
    fireEvent.click(screen.getByTestId('tenant-form-submit'));
    const grantError = await screen.findByText('用户数不能大于授权用户数', {}, SLOW);
    expect(grantError.closest('.ant-form-item')?.querySelector('[data-testid="grant-userCount"]')).not.toBeNull();
    const idError = screen.getByText('用户ID已存在');
    expect(idError.closest('.ant-form-item')?.querySelector('[data-testid="tenant-form-id"]')).not.toBeNull();
  });

  it('edits without id or passwords and sends the shared patch body', async () => {
    const { calls } = api((call) => ({ body: tenant('t1', call.body as object) }));
    open('/app/model/User/t1/edit');
    await screen.findByTestId('grant-form');
    await waitFor(() => expect((screen.getByTestId('tenant-form-name') as HTMLInputElement).value).toBe('Tenant t1'));
    expect(screen.queryByTestId('tenant-form-id')).toBeNull();
    expect(screen.queryByTestId('tenant-form-password')).toBeNull();
    expect((screen.getByTestId('tenant-form-perm-marketTemplates') as HTMLInputElement).checked).toBe(false);

    type('tenant-form-name', 'Renamed');
    fireEvent.click(screen.getByTestId('tenant-form-submit'));
    expect(await screen.findByText('保存租户成功', {}, SLOW)).toBeTruthy();
    const patch = saveCall(calls) as MockCall;
    expect(patch.method).toBe('PATCH');
    const body = patch.body as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Renamed', industry: 'coal', type: 1, remarks: 'old remarks' });
    expect(body.grant).toMatchObject({ startTime: TENANT_GRANT.startTime, userCount: 50, flow: { tableCount: 100 } });
    expect(Object.keys(body)).not.toContain('password');
    expect(Object.keys(body.grant as object)).not.toContain('remainingTime');
    const pool = calls.find((c) => c.url.includes('unUse/license'));
    expect(pool?.url).toContain('target=tenant');
    expect(pool?.url).toContain('except=t1');
  });
});
