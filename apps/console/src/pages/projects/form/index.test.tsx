import { localDate, type ProjectView } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../services/feedback';
import type { UnusedLicence } from '../../../services/licence';
import { ADMIN, type MockCall, mockFetch, renderPage, signIn, TENANT } from '../../../test/utils';
import { currentUser } from '../../licence/testFixtures';
import { GRANT, project } from '../testFixtures';
import ProjectFormPage from '.';

// the first antd form render and message of a file are slow in happy-dom
configure({ asyncUtilTimeout: 5000 });

type Reply = { status?: number; body?: unknown };

const today = localDate(new Date());
const POOL: UnusedLicence = {
  parent: { ...GRANT, userCount: 100, flow: { tableCount: 100 }, remainingTime: 365, endTime: '2099-01-01' },
  parentKind: 'platform',
  allocated: {},
  available: { userCount: 100, 'flow.tableCount': 100 },
  today,
};

const template = (id: string, name: string, usable = true) => ({
  id,
  name,
  developer: 'Gantry',
  industry: 'oil',
  usable,
  card_display: { cover: `/portal/rest/spm/templates/${id}/cover.svg`, intro: `${name} intro` },
});
const TEMPLATES = [
  template('tpl-oil', 'Oil field monitoring'),
  template('tpl-heat', 'Heating station'),
  template('tpl-locked', 'Locked one', false),
];

function server(
  options: {
    onSave?: (call: MockCall) => Reply;
    onCert?: (call: MockCall) => Reply;
    loaded?: ProjectView;
    features?: string[];
  } = {},
) {
  return mockFetch((call): Reply | undefined => {
    const path = call.url.split('?')[0] ?? '';
    if (path === '/portal/rest/spm/login/current/user') {
      return { body: currentUser({ features: options.features ?? ['gis', 'Oauth'] }) };
    }
    if (path === '/portal/rest/spm/login/current/unUse/license') return { body: POOL };
    if (path === '/portal/rest/spm/user') return { body: [{ id: 'acme', name: 'Acme' }] };
    if (path === '/portal/rest/spm/templates') {
      const name = new URL(call.url, 'http://x').searchParams.get('name_contains') ?? '';
      return { body: TEMPLATES.filter((template) => template.name.toLowerCase().includes(name.toLowerCase())) };
    }
    if (path.startsWith('/portal/rest/spm/templates/')) {
      const id = decodeURIComponent(path.split('/').pop() ?? '');
      const found = TEMPLATES.find((template) => template.id === id);
      return found ? { body: found } : { status: 404, body: { message: 'not found', code: 'notFound' } };
    }
    if (path === '/portal/rest/spm/project/cert')
      return options.onCert?.(call) ?? { body: { key: 'a.key', pem: 'a.pem' } };
    if (options.loaded && path === `/portal/rest/spm/project/${options.loaded.id}` && call.method === 'GET') {
      return { body: options.loaded };
    }
    if ((path === '/portal/rest/spm/project' && call.method === 'POST') || call.method === 'PUT') {
      return options.onSave?.(call) ?? { body: { ...project('new1'), ...(call.body as object) } };
    }
    return undefined;
  });
}

function renderAdd(url = '/app/model/Project/add', user = ADMIN) {
  signIn(user);
  renderPage(<ProjectFormPage />, { path: '/app/model/Project/add', url });
  return screen.findByTestId('project-form');
}

function renderEdit(loaded: ProjectView) {
  signIn(ADMIN);
  renderPage(<ProjectFormPage />, { path: '/app/model/Project/:id/edit', url: `/app/model/Project/${loaded.id}/edit` });
  return screen.findByTestId('project-form');
}

function type(testId: string, value: string) {
  const input = screen.getByTestId(testId);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function chooseIndustry(label: string) {
  const select = screen.getByTestId('project-industry');
  const combobox = select.matches('input') ? select : (within(select).queryByRole('combobox') ?? select);
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByText(label);
  const last = options.at(-1);
  if (!last) throw new Error('no option');
  fireEvent.click(last);
}

async function fillRequired() {
  type('project-name', 'Boiler house');
  await chooseIndustry('煤炭');
  type('grant-validityPeriod', '30');
  type('grant-userCount', '10');
  type('grant-flow-tableCount', '5');
}

const saved = (calls: MockCall[], method = 'POST') =>
  calls.find((c) => c.method === method && c.url.startsWith('/portal/rest/spm/project') && !c.url.includes('cert'))
    ?.body as Record<string, unknown>;

function file(name: string) {
  return new File(['-----BEGIN-----'], name, { type: 'application/octet-stream' });
}

function upload(...files: File[]) {
  const input = screen.getByTestId('project-cert').querySelector('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files } });
}

describe('project form: add', () => {
  it('checks the project id with the shared rules', async () => {
    server();
    await renderAdd();
    const cases: [string, string][] = [
      ['12345', '项目ID不能全为数字'],
      ['abcD', '项目ID不能包含大写字母'],
      ['1abc', '项目ID必须以小写字母开头'],
      ['default', '项目ID不能为default'],
      ['ab_c', '项目ID只能包含小写字母和数字'],
    ];
    for (const [id, message] of cases) {
      type('project-id', id);
      expect(await screen.findByText(message)).toBeTruthy();
    }
    type('project-id', 'plant2');
    await waitFor(() => expect(screen.queryByText('项目ID只能包含小写字母和数字')).toBeNull());
  });

  it('rejects a malformed domain and a port out of range', async () => {
    server();
    await renderAdd();
    type('project-domain', 'bad--domain.com');
    expect(await screen.findByText('域名格式错误！')).toBeTruthy();
    type('project-domain', 'https://plant.example.com');
    await waitFor(() => expect(screen.queryByText('域名格式错误！')).toBeNull());
    type('project-port', '80');
    expect(await screen.findByText('端口范围为5001-65535')).toBeTruthy();
  });

  it('requires a template when the template type is chosen, and a blank project clears it', async () => {
    const { calls } = server();
    await renderAdd();
    await fillRequired();
    fireEvent.click(screen.getByTestId('project-projectType-template'));
    fireEvent.click(await screen.findByTestId('project-save'));
    expect(await screen.findByText('请选择方案库后再提交')).toBeTruthy();
    expect(saved(calls)).toBeUndefined();

    fireEvent.click(await screen.findByTestId('project-template-pick'));
    const search = await screen.findByPlaceholderText('按名称搜索');
    fireEvent.change(search, { target: { value: 'oil' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.queryByTestId('project-template-option-tpl-heat')).toBeNull());
    fireEvent.click(await screen.findByTestId('project-template-option-tpl-oil'));
    await waitFor(() => expect(screen.getByTestId('project-type').getAttribute('data-value')).toBe('tpl-oil'));
    expect((await screen.findByTestId('project-template-chosen')).textContent).toContain('Oil field monitoring');
    await waitFor(() => expect(screen.queryByText('请选择方案库后再提交')).toBeNull());
    fireEvent.click(screen.getByTestId('project-projectType-blank'));
    await waitFor(() => expect(screen.queryByTestId('project-type')).toBeNull());
    fireEvent.click(screen.getByTestId('project-save'));
    await waitFor(() => expect(saved(calls)).toBeDefined());
    expect(saved(calls)).toMatchObject({ projectType: 'blank', type: null });
  });

  it('creates a project from the chosen template through project/_template and shows the install until it ends', async () => {
    let polls = 0;
    const { calls } = mockFetch((call) => {
      const path = call.url.split('?')[0] ?? '';
      if (path === '/portal/rest/spm/login/current/user') return { body: currentUser({ features: ['gis'] }) };
      if (path === '/portal/rest/spm/login/current/unUse/license') return { body: POOL };
      if (path === '/portal/rest/spm/user') return { body: [{ id: 'acme', name: 'Acme' }] };
      if (path === '/portal/rest/spm/templates/heating-station') {
        return { body: { id: 'heating-station', name: 'Heating station monitoring', developer: 'Gantry' } };
      }
      if (path === '/portal/rest/spm/project/_template' && call.method === 'POST') {
        return { body: { ...project('heat9'), task: { id: 'task9', requestId: 'r9' } } };
      }
      if (path === '/portal/rest/spm/proxy/core/taskmanager/task9') {
        polls++;
        return {
          body: {
            id: 'task9',
            status: polls < 2 ? 'ongoing' : 'success',
            progress: polls < 2 ? 0.5 : 1,
            message: null,
          },
        };
      }
      return undefined;
    });
    await renderAdd('/app/model/Project/add?type=heating-station');
    expect((await screen.findByTestId('project-template-chosen')).textContent).toContain('Heating station monitoring');
    await fillRequired();
    fireEvent.click(screen.getByTestId('project-save'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/app/model/Project/list'));
    const post = calls.find((c) => c.url.startsWith('/portal/rest/spm/project/_template'));
    expect(post?.body).toMatchObject({ projectType: 'template', type: 'heating-station', name: 'Boiler house' });
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(calls.some((c) => c.method === 'POST' && c.url === '/portal/rest/spm/project')).toBe(false);
  });

  it('offers a tenant only the project types its permissions allow', async () => {
    mockFetch((call) => {
      const path = call.url.split('?')[0] ?? '';
      if (path === '/portal/rest/spm/login/current/user') return { body: currentUser({ features: ['gis'] }) };
      if (path === '/portal/rest/spm/login/current/unUse/license') return { body: POOL };
      if (path === '/portal/rest/spm/user/acme') {
        return {
          body: { id: 'acme', permissions: { ownTemplates: false, marketTemplates: true, blankProjects: false } },
        };
      }
      return undefined;
    });
    await renderAdd('/app/model/Project/add', TENANT);
    const blank = () => screen.getByTestId('project-projectType-blank').closest('label')?.querySelector('input');
    await waitFor(() => expect(blank()?.disabled).toBe(true));
    const template = screen.getByTestId('project-projectType-template').closest('label')?.querySelector('input');
    expect(template?.disabled).toBe(false);
  });

  it('preselects the template of ?type=', async () => {
    server();
    await renderAdd('/app/model/Project/add?type=tpl-oil');
    expect((await screen.findByTestId('project-type')).getAttribute('data-value')).toBe('tpl-oil');
    expect((await screen.findByTestId('project-template-chosen')).textContent).toContain('Oil field monitoring');
  });

  it('rejects certificate files that are not one .key and one .pem, and requires both', async () => {
    server();
    await renderAdd();
    fireEvent.click(screen.getByTestId('project-isUseHttps'));
    await screen.findByTestId('project-cert');
    // a hint about the files chosen: a pop-up error of 3 s (not a server's 13 s error)
    const errors = vi.spyOn(toast, 'hint');
    upload(file('server.crt'));
    expect(await screen.findByText(/只能上传.key和.pem文件各一个/)).toBeTruthy();
    upload(file('bad name.key'));
    // refused again: the same message once more, replacing the open toast (one toast per text, issue 10)
    await waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    for (const [text] of errors.mock.calls) expect(String(text)).toMatch(/只能上传.key和.pem文件各一个/);
    expect(screen.getByTestId('project-cert-key').textContent).toContain('未上传 .key 文件');

    upload(file('server.key'));
    await waitFor(() => expect(screen.getByTestId('project-cert-key').textContent).toContain('server.key'));
    fireEvent.click(screen.getByTestId('project-save'));
    expect(await screen.findByText('请上传全部证书')).toBeTruthy();
    upload(file('server.pem'));
    await waitFor(() => expect(screen.getByTestId('project-cert-pem').textContent).toContain('server.pem'));
  });

  it('saves the project, then sends the certificates, and goes back to the list', async () => {
    const { calls } = server();
    await renderAdd();
    await fillRequired();
    type('project-id', 'plant2');
    type('project-domain', 'plant.example.com');
    fireEvent.click(screen.getByTestId('project-isUseHttps'));
    await screen.findByTestId('project-cert');
    upload(file('server.key'), file('server.pem'));
    await waitFor(() => expect(screen.getByTestId('project-cert-pem').textContent).toContain('server.pem'));
    fireEvent.click(screen.getByTestId('project-save'));

    expect(await screen.findByText('添加项目成功')).toBeTruthy();
    const body = saved(calls);
    expect(body).toMatchObject({
      id: 'plant2',
      name: 'Boiler house',
      industry: 'coal',
      user: 'admin',
      projectType: 'blank',
      domain: 'plant.example.com',
      isUseHttps: true,
      grant: {
        validityPeriod: 30,
        startTime: today,
        userCount: 10,
        flow: { tableCount: 5 },
        visual: { dashboardCount: 30 },
      },
    });
    expect(body).not.toHaveProperty('certificates');
    const cert = calls.find((c) => c.url === '/portal/rest/spm/project/cert');
    expect(cert?.body).toBeInstanceOf(FormData);
    const form = cert?.body as FormData;
    expect(form.get('id')).toBe('plant2');
    expect(form.get('domain')).toBe('plant.example.com');
    expect((form.get('certKey') as File).name).toBe('server.key');
    expect((form.get('certPem') as File).name).toBe('server.pem');
    expect((await screen.findByTestId('location')).textContent).toBe('/app/model/Project/list');
  });

  it('puts the server field errors on their fields', async () => {
    server({
      onSave: () => ({
        status: 400,
        body: {
          message: '用户数不能大于授权用户数',
          code: 'grantInvalid',
          fields: { 'grant.userCount': '用户数不能大于授权用户数', domain: 'project.domainTaken' },
        },
      }),
    });
    await renderAdd();
    await fillRequired();
    fireEvent.click(screen.getByTestId('project-save'));
    expect(await screen.findByText('用户数不能大于授权用户数')).toBeTruthy();
    expect(screen.getByText('该域名已被其他项目使用')).toBeTruthy();
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('puts a conflict without fields on the field its code names', async () => {
    server({ onSave: () => ({ status: 409, body: { message: '该端口已被其他项目使用', code: 'portTaken' } }) });
    await renderAdd();
    await fillRequired();
    type('project-port', '5002');
    fireEvent.click(screen.getByTestId('project-save'));
    expect(await screen.findByText('该端口已被其他项目使用')).toBeTruthy();
  });

  it('shows no owner selector nor SSO switch to a tenant', async () => {
    server();
    await renderAdd('/app/model/Project/add', TENANT);
    expect(screen.queryByTestId('project-owner')).toBeNull();
    expect(screen.queryByTestId('project-hasSSO')).toBeNull();
  });

  it('clears the public folder permissions when the folder is turned off', async () => {
    const { calls } = server();
    await renderAdd();
    await fillRequired();
    fireEvent.click(screen.getByTestId('project-publicDir'));
    fireEvent.click(await screen.findByTestId('project-publicDir-upload'));
    fireEvent.click(screen.getByTestId('project-publicDir'));
    await waitFor(() => expect(screen.queryByTestId('project-publicDir-feature')).toBeNull());
    fireEvent.click(screen.getByTestId('project-save'));
    await waitFor(() => expect(saved(calls)).toBeDefined());
    expect(saved(calls).advanced).toEqual({ mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] });
  });
});

describe('project form: edit', () => {
  it('loads the project without the id field, and saves every field with PUT', async () => {
    const loaded = project('plant1', { hasSSO: true, port: 5005, planId: 'plan-7', remarks: 'north site' });
    const { calls } = server({ loaded });
    await renderEdit(loaded);
    expect(screen.queryByTestId('project-id')).toBeNull();
    expect((screen.getByTestId('project-name') as HTMLInputElement).value).toBe('Project plant1');
    expect((screen.getByTestId('project-hasSSO') as HTMLElement).getAttribute('aria-checked')).toBe('true');
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('unUse/license') && c.url.includes('except=plant1'))).toBe(true),
    );
    fireEvent.click(screen.getByTestId('project-save'));
    expect(await screen.findByText('修改项目成功')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/portal/rest/spm/project/plant1');
    expect(put?.body).toMatchObject({
      name: 'Project plant1',
      hasSSO: true,
      port: 5005,
      planId: 'plan-7',
      remarks: 'north site',
      user: 'acme',
    });
    expect(put?.body).not.toHaveProperty('id');
    expect((put?.body as { grant: object } | undefined)?.grant).not.toHaveProperty('remainingTime');
  });
});

describe('project form: single sign-on', () => {
  const sso = () => screen.getByTestId('project-hasSSO') as HTMLButtonElement;

  it('cannot be turned on without the licensed feature Oauth, and says why', async () => {
    const loaded = project('plant1', { hasSSO: false });
    server({ loaded, features: ['gis'] });
    await renderEdit(loaded);
    await waitFor(() => expect(sso().getAttribute('data-blocked')).toBe('Oauth'));
    expect(sso().disabled).toBe(true);
    expect(screen.getByText('当前授权不含“OAuth登录”功能，无法开启单点登录')).toBeTruthy();
  });

  it('can still be turned off when it is on without the feature', async () => {
    const loaded = project('plant1', { hasSSO: true });
    server({ loaded, features: [] });
    await renderEdit(loaded);
    await waitFor(() => expect(sso().getAttribute('data-blocked')).toBe('Oauth'));
    expect(sso().disabled).toBe(false);
    fireEvent.click(sso());
    // off, then blocked (the switch's state follows the form's value a render later)
    await waitFor(() => {
      expect(sso().getAttribute('aria-checked')).toBe('false');
      expect(sso().disabled).toBe(true);
    });
  });

  it('is free with the feature', async () => {
    const loaded = project('plant1', { hasSSO: false });
    const { calls } = server({ loaded, features: ['Oauth'] });
    await renderEdit(loaded);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/login/current/user'))).toBe(true));
    await waitFor(() => expect(sso().disabled).toBe(false));
    expect(sso().getAttribute('data-blocked')).toBeNull();
  });
});

describe('template picker', () => {
  it("lists the gallery's cards and does not let an unusable template be chosen", async () => {
    server();
    await renderAdd();
    fireEvent.click(screen.getByTestId('project-projectType-template'));
    fireEvent.click(await screen.findByTestId('project-template-pick'));
    expect(await screen.findByTestId('project-template-option-tpl-heat')).toBeTruthy();
    const locked = screen.getByTestId('project-template-option-tpl-locked') as HTMLButtonElement;
    expect(locked.disabled).toBe(true);
    expect(screen.getByTestId('project-template-option-tpl-oil').textContent).toContain('Oil field monitoring intro');
  });
});
