import { PROJECT_CARD_PAGE, type ProjectView } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, type MockCall, mockFetch, renderPage, signIn, TENANT } from '../../test/utils';
import { licenceInfo } from '../licence/testFixtures';
import ProjectListPage from '.';
import { PROJECT_FILTER_KEY } from './projectFilter';
import { PROJECT_ACTIONS } from './projectMenu';
import { project, projects } from './testFixtures';
import { viewModeKey } from './viewMode';

// the first antd form render and message of a file are slow in happy-dom
configure({ asyncUtilTimeout: 5000 });

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };

interface ServerOptions {
  /** All projects; pages are cut by skip/limit. */
  rows?: ProjectView[];
  licence?: 'installed' | 'missing' | 'otherMachine';
  onDelete?: (id: string) => Reply;
  onPatch?: (call: MockCall) => Reply;
}

const LICENCE = licenceInfo({ grant: grantOf(project('x')) });
const OTHER_MACHINE = '该授权属于另一台机器（机器码AAAAA），本机机器码为BBBBB';

function grantOf(view: ReturnType<typeof project>): NonNullable<ReturnType<typeof project>['grant']> {
  if (!view.grant) throw new Error('the fixture project has no grant');
  return view.grant;
}

function listQuery(call: MockCall | undefined): {
  skip: number;
  limit: number;
  filter: unknown;
  sort: unknown;
  withCount: boolean;
} {
  if (!call) throw new Error('no project list call');
  const url = new URL(call.url, 'http://localhost');
  return JSON.parse(url.searchParams.get('query') ?? '{}');
}

function server({ rows = [], licence = 'installed', onDelete, onPatch }: ServerOptions = {}) {
  return mockFetch((call): Reply | undefined => {
    const path = call.url.split('?')[0];
    if (path === '/portal/rest/spm/project' && call.method === 'GET') {
      const q = listQuery(call);
      return { body: rows.slice(q.skip, q.skip + q.limit), headers: { count: String(rows.length) } };
    }
    if (path?.startsWith('/portal/rest/spm/project/') && call.method === 'DELETE') {
      const id = decodeURIComponent(path.split('/').pop() ?? '');
      return onDelete ? onDelete(id) : { body: { id } };
    }
    if (call.method === 'PATCH' && onPatch) return onPatch(call);
    if (path === '/portal/rest/license/info') {
      if (licence === 'otherMachine') return { body: { ...LICENCE, state: 'otherMachine', reason: OTHER_MACHINE } };
      return licence === 'installed'
        ? { body: LICENCE }
        : { status: 404, body: { message: '请先上传授权再添加项目', code: 'licenceMissing' } };
    }
    if (path === '/portal/rest/spm/user') return { body: [{ id: 'acme', name: 'Acme' }] };
    if (path === '/portal/rest/spm/login/current/unUse/license') {
      return {
        body: { parent: LICENCE.grant, parentKind: 'tenant', allocated: {}, available: {}, today: '2026-01-01' },
      };
    }
    return undefined;
  });
}

const projectCalls = (calls: MockCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith('/portal/rest/spm/project?'));

function renderList(user = ADMIN) {
  signIn(user);
  renderPage(<ProjectListPage />, { path: '/app/model/Project/list' });
}

describe('project card grid', () => {
  it('asks newest first with a count, and shows remaining authorisation, devices and owner', async () => {
    const big = project('big', {
      name: 'Big plant',
      grant: { ...grantOf(project('x')), userCount: 5000, dataGathering: { point: 10_000 } },
      license: { userCount: 10, dataGathering: { point: 8999 } },
    });
    const small = project('small', { license: { userCount: 5, dataGathering: { point: 1500 } } });
    const { calls } = server({ rows: [small, big] });
    renderList();
    const card = await screen.findByTestId('project-card-small');
    // points 2000 − 1500, users 20 − 5
    expect(within(card).getByTestId('project-card-small-points').textContent).toBe('500');
    expect(within(card).getByTestId('project-card-small-users').textContent).toBe('15');
    expect(within(card).getByTestId('project-card-small-devices').textContent).toBe('设备：5 / 在线：3');
    expect(within(card).getByTestId('project-card-small-owner').textContent).toContain('Acme');
    // 10000 − 8999 = 1001 → 999+, exact value kept for the tooltip
    const points = screen.getByTestId('project-card-big-points');
    expect(points.textContent).toBe('999+');
    expect(points.getAttribute('data-exact')).toBe('1001');
    expect(screen.getByTestId('project-card-big-users').textContent).toBe('999+');
    fireEvent.mouseEnter(points);
    expect(await screen.findByText('1,001')).toBeTruthy();

    const query = listQuery(projectCalls(calls)[0]);
    expect(query).toEqual({ sort: { createTime: -1 }, skip: 0, limit: PROJECT_CARD_PAGE, filter: {}, withCount: true });
  });

  it('offers "load more" only after a full page', async () => {
    const { calls } = server({ rows: projects(PROJECT_CARD_PAGE + 3) });
    renderList();
    await screen.findByTestId('project-card-p000');
    fireEvent.click(await screen.findByTestId('project-load-more'));
    await screen.findByTestId('project-card-p017');
    expect(listQuery(projectCalls(calls)[1])).toMatchObject({ skip: PROJECT_CARD_PAGE, limit: PROJECT_CARD_PAGE });
    // the second page came back with 3: no more
    expect(screen.queryByTestId('project-load-more')).toBeNull();
  });

  it('offers no "load more" when the first page is not full', async () => {
    server({ rows: projects(4) });
    renderList();
    await screen.findByTestId('project-card-p003');
    expect(screen.queryByTestId('project-load-more')).toBeNull();
  });

  it('shows the empty state', async () => {
    server({ rows: [] });
    renderList();
    expect(await screen.findByTestId('project-empty')).toBeTruthy();
  });

  it('opens the licence detail with every measure granted / used / remaining', async () => {
    server({ rows: [project('a')] });
    renderList();
    fireEvent.click(await screen.findByTestId('project-card-a-licence'));
    const row = await screen.findByTestId('licence-detail-userCount');
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['用户数', '20', '5', '15']);
    const unlimited = screen.getByTestId('licence-detail-eventCount');
    expect([...unlimited.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['事件数', '不限', '0', '不限']);
    expect(screen.getByTestId('licence-detail-features').textContent).toContain('GIS地图');
  });
});

describe('project filter', () => {
  it('searches by name, shows the chip, keeps it in sessionStorage and clears it', async () => {
    const { calls } = server({ rows: [project('a')] });
    renderList();
    await screen.findByTestId('project-card-a');
    const search = screen.getByTestId('project-search') as HTMLInputElement;
    fireEvent.change(search, { target: { value: 'boiler.1' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });

    const chip = await screen.findByTestId('project-filter-chip-name');
    expect(chip.textContent).toContain('项目名称：boiler.1');
    expect(screen.getByTestId('project-filter-chips').textContent).toContain('筛选条件');
    expect(JSON.parse(sessionStorage.getItem(PROJECT_FILTER_KEY) ?? '{}')).toEqual({ name: 'boiler.1' });
    await waitFor(() => expect(listQuery(projectCalls(calls).at(-1)).filter).toEqual({ name: { like: 'boiler\\.1' } }));

    fireEvent.click(screen.getByTestId('project-filter-clear'));
    await waitFor(() => expect(screen.queryByTestId('project-filter-chips')).toBeNull());
    expect(sessionStorage.getItem(PROJECT_FILTER_KEY)).toBeNull();
  });

  it('restores the stored filter, applies the drawer and removes one chip', async () => {
    sessionStorage.setItem(
      PROJECT_FILTER_KEY,
      JSON.stringify({ industry: 'coal', user: 'acme', createTime: ['2026-01-01', '2026-01-31'] }),
    );
    const { calls } = server({ rows: [project('a')] });
    renderList();
    expect((await screen.findByTestId('project-filter-chip-industry')).textContent).toContain('行业：煤炭');
    expect((await screen.findByTestId('project-filter-chip-user')).textContent).toContain('所属租户：Acme');
    expect(screen.getByTestId('project-filter-chip-createTime').textContent).toContain('2026-01-01 ~ 2026-01-31');
    const first = listQuery(projectCalls(calls)[0]).filter as Record<string, unknown>;
    expect(first.industry).toBe('coal');
    expect(first.user).toBe('acme');
    expect(first.createTime).toHaveProperty('gte');

    fireEvent.click(screen.getByTestId('project-filter-open'));
    fireEvent.click(await screen.findByTestId('project-filter-status-disabled'));
    fireEvent.click(screen.getByTestId('project-filter-confirm'));
    expect((await screen.findByTestId('project-filter-chip-status')).textContent).toContain('状态：已禁用');
    expect(JSON.parse(sessionStorage.getItem(PROJECT_FILTER_KEY) ?? '{}')).toMatchObject({
      status: false,
      industry: 'coal',
    });

    fireEvent.click(screen.getByTestId('project-filter-chip-industry-remove'));
    await waitFor(() => expect(screen.queryByTestId('project-filter-chip-industry')).toBeNull());
    expect(JSON.parse(sessionStorage.getItem(PROJECT_FILTER_KEY) ?? '{}')).not.toHaveProperty('industry');
  });

  it('scopes the administrator to all, own or tenant projects', async () => {
    const { calls } = server({ rows: [project('a')] });
    renderList();
    await screen.findByTestId('project-card-a');
    expect(listQuery(projectCalls(calls).at(-1)).filter).toEqual({});
    fireEvent.click(screen.getByTestId('project-scope-mine'));
    await waitFor(() => expect(listQuery(projectCalls(calls).at(-1)).filter).toEqual({ user: ADMIN.id }));
    fireEvent.click(screen.getByTestId('project-scope-tenants'));
    await waitFor(() => expect(listQuery(projectCalls(calls).at(-1)).filter).toEqual({ user: { ne: ADMIN.id } }));
  });

  it('shows no scope selector to a tenant', async () => {
    server({ rows: [project('a')] });
    renderList(TENANT);
    await screen.findByTestId('project-card-a');
    expect(screen.queryByTestId('project-scope')).toBeNull();
  });
});

describe('project list view and batch delete', () => {
  it('remembers the view per user name and pages the table by 24', async () => {
    const { calls } = server({ rows: projects(30) });
    renderList();
    await screen.findByTestId('project-card-p000');
    fireEvent.click(screen.getByTestId('project-view-list'));
    expect(await screen.findByTestId('project-row-p000')).toBeTruthy();
    expect(localStorage.getItem(viewModeKey(ADMIN.username))).toBe('list');
    expect(listQuery(projectCalls(calls).at(-1))).toMatchObject({ skip: 0, limit: 24 });
    expect(screen.getByTestId('project-row-p000-devices').textContent).toBe('5 / 3');
  });

  it('deletes each selected project with its own DELETE and shows every failure', async () => {
    const { calls } = server({
      rows: [project('a'), project('b'), project('c')],
      onDelete: (id) =>
        id === 'b' ? { status: 409, body: { message: 'project b is busy', code: 'conflict' } } : { body: { id } },
    });
    renderList();
    for (const id of ['a', 'b', 'c']) fireEvent.click(await screen.findByTestId(`project-card-${id}-select`));
    fireEvent.click(screen.getByTestId('project-batch-delete'));
    fireEvent.click(await screen.findByTestId('project-batch-delete-ok'));

    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(3));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/portal/rest/spm/project/a',
      '/portal/rest/spm/project/b',
      '/portal/rest/spm/project/c',
    ]);
    expect(await screen.findByText('Project b删除失败：project b is busy')).toBeTruthy();
    // successes are antd's static message (services/feedback.ts), rendered in a root of its own
    expect(await screen.findByText('已删除 2 个项目')).toBeTruthy();
    // the failed one stays selected
    await waitFor(() => expect(screen.getByTestId('project-batch-delete').textContent).toContain('1'));
  });

  it('confirms before toggling the status and says so by name', async () => {
    const { calls } = server({ rows: [project('a')], onPatch: () => ({ body: { ...project('a'), status: false } }) });
    renderList();
    fireEvent.click(await screen.findByTestId('project-card-a-more'));
    fireEvent.click(await screen.findByTestId('project-card-a-menu-status'));
    fireEvent.click(await screen.findByTestId('project-status-ok'));
    expect(await screen.findByText('Project a禁用成功')).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/portal/rest/spm/project/a/status');
    expect(patch?.body).toEqual({ status: false });
  });

  it('opens the backup page from project backup management, the database backup page from its own', async () => {
    server({ rows: [project('a')] });
    renderList();
    fireEvent.click(await screen.findByTestId('project-card-a-more'));
    const backup = await screen.findByTestId('project-card-a-menu-backup');
    fireEvent.mouseEnter(backup.closest('[role="menuitem"]') ?? backup);
    fireEvent.click(await screen.findByTestId('project-card-a-menu-backup-upload'));
    await waitFor(() => expect(window.location.hash).toBe('#/app/backup?projectId=a&action=upload'));

    fireEvent.click(await screen.findByTestId('project-card-a-more'));
    const database = await screen.findByTestId('project-card-a-menu-dbBackup');
    expect(database.closest('li')?.getAttribute('aria-disabled')).not.toBe('true');
    fireEvent.mouseEnter(database.closest('[role="menuitem"]') ?? database);
    for (const entry of ['upload', 'create', 'restore', 'ftpRestore']) {
      expect(await screen.findByTestId(`project-card-a-menu-dbBackup-${entry}`)).toBeTruthy();
    }
    fireEvent.click(screen.getByTestId('project-card-a-menu-dbBackup-ftpRestore'));
    await waitFor(() => expect(window.location.hash).toBe('#/app/db-backup?projectId=a&action=ftpRestore'));
  });
});

describe('add project', () => {
  it('is disabled with the licence message while the platform has no licence', async () => {
    server({ rows: [], licence: 'missing' });
    renderList();
    const add = await screen.findByTestId('project-add');
    await waitFor(() => expect(add.getAttribute('data-blocked')).toBe('请先上传授权再添加项目'));
    expect((add as HTMLButtonElement).disabled).toBe(true);
    fireEvent.mouseEnter(add.parentElement ?? add);
    expect(await screen.findByText('请先上传授权再添加项目')).toBeTruthy();
  });

  it('is disabled with the reason while the licence is not valid here', async () => {
    server({ rows: [], licence: 'otherMachine' });
    renderList();
    const add = await screen.findByTestId('project-add');
    await waitFor(() => expect(add.getAttribute('data-blocked')).toBe(OTHER_MACHINE));
    expect((add as HTMLButtonElement).disabled).toBe(true);
  });

  it('is disabled for a tenant whose own grant is missing', async () => {
    mockFetch((call) => {
      if (call.url.startsWith('/portal/rest/spm/project?')) return { body: [], headers: { count: '0' } };
      if (call.url.startsWith('/portal/rest/spm/login/current/unUse/license')) {
        return { body: { parent: null, parentKind: 'tenant', allocated: {}, available: {}, today: '2026-01-01' } };
      }
      return undefined;
    });
    renderList(TENANT);
    await waitFor(() =>
      expect(screen.getByTestId('project-add').getAttribute('data-blocked')).toBe(
        '您的授权不存在或已过期，请联系管理员',
      ),
    );
  });

  it('is enabled with a licence', async () => {
    server({ rows: [], licence: 'installed' });
    renderList();
    await screen.findByTestId('project-add');
    await waitFor(() => expect((screen.getByTestId('project-add') as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByTestId('project-add').getAttribute('data-blocked')).toBeNull();
  });
});

describe('project hub actions (issue 32)', () => {
  const menuActions = (prefix: string) =>
    [...document.querySelectorAll(`[data-testid^="${prefix}-menu-"]`)]
      .map((node) => node.getAttribute('data-testid')?.slice(prefix.length + 6) ?? '')
      .filter((action) => !action.includes('-'));

  it('offers every action, in one order, in the card menu and in the list row menu', async () => {
    server({ rows: [project('a')] });
    renderList();
    fireEvent.click(await screen.findByTestId('project-card-a-more'));
    await screen.findByTestId('project-card-a-menu-detail');
    const card = menuActions('project-card-a');
    expect(card).toEqual([...PROJECT_ACTIONS]);

    fireEvent.click(screen.getByTestId('project-view-list'));
    fireEvent.click(await screen.findByTestId('project-row-a-more'));
    await screen.findByTestId('project-row-a-menu-detail');
    expect(menuActions('project-row-a')).toEqual(card);
  });

  it('shows a tenant every action but the backups', async () => {
    server({ rows: [project('a')] });
    renderList(TENANT);
    fireEvent.click(await screen.findByTestId('project-card-a-more'));
    await screen.findByTestId('project-card-a-menu-detail');
    expect(menuActions('project-card-a')).toEqual(PROJECT_ACTIONS.filter((a) => a !== 'backup' && a !== 'dbBackup'));
  });

  it.each([
    ['detail', '#/app/model/Project/a/detail'],
    ['media', '#/app/model/Project/a/media'],
    ['tables', '#/app/model/Project/a/tables'],
    ['edit', '#/app/model/Project/a/edit'],
    ['backup', '#/app/backup?projectId=a'],
    ['dbBackup', '#/app/db-backup?projectId=a'],
  ])('opens the %s screen with one click in the menu', async (action, hash) => {
    server({ rows: [project('a')] });
    renderList();
    fireEvent.click(await screen.findByTestId('project-card-a-more'));
    const entry = await screen.findByTestId(`project-card-a-menu-${action}`);
    fireEvent.click(entry.closest('[role="menuitem"]') ?? entry);
    await waitFor(() => expect(window.location.hash).toBe(hash));
  });

  it('links the card title to the detail', async () => {
    server({ rows: [project('a')] });
    renderList();
    const name = await screen.findByTestId('project-card-a-name');
    expect(name.tagName).toBe('A');
    expect(name.getAttribute('href')).toBe('#/app/model/Project/a/detail');
  });

  it('writes white on dark blue, black on light blue, and greys out a disabled card', async () => {
    server({
      rows: [
        project('dark', { bgColor: '#003a8c' }),
        project('light', { bgColor: '#e6f4ff' }),
        project('off', { bgColor: '#003a8c', status: false }),
        project('plain', { bgColor: null }),
      ],
    });
    renderList();
    const dark = await screen.findByTestId('project-card-dark');
    expect(dark.style.getPropertyValue('--gantry-card-text')).toBe('#ffffff');
    expect(dark.className).toContain('gantry-card-coloured');
    const light = screen.getByTestId('project-card-light');
    expect(light.style.getPropertyValue('--gantry-card-text')).toBe('#000000');
    const off = screen.getByTestId('project-card-off');
    expect(off.className).toContain('gantry-card-disabled');
    expect(off.getAttribute('data-disabled')).toBe('true');
    // #003a8c greyed by luma: #343434
    expect(off.style.background).toMatch(/#343434|rgb\(52, 52, 52\)/);
    const plain = screen.getByTestId('project-card-plain');
    expect(plain.className).not.toContain('gantry-card-coloured');
  });

  it('shows remarks, colour, plan and port in the list from 1,600 px', async () => {
    // A wide screen: every breakpoint (min-width) query matches, the mobile one (max-width) does not.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('min-width'),
      media: query,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    server({ rows: [project('a', { remarks: 'Boiler house', bgColor: '#123456', planId: 'plan-7', port: 5010 })] });
    renderList();
    await screen.findByTestId('project-card-a');
    fireEvent.click(screen.getByTestId('project-view-list'));
    const row = await screen.findByTestId('project-row-a');
    for (const text of ['Boiler house', '#123456', 'plan-7', '5010']) expect(row.textContent).toContain(text);
    vi.unstubAllGlobals();
  });
});
