import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableDetail } from '../../../services/tables';
import { type MockCall, mockFetch, renderPage, signIn } from '../../../test/utils';
import ProjectTablesPage from '.';
import { newField } from './draft';
import { filterOf, recordsSettingKey } from './records/Records';
import { definitionOf, depthRetyped } from './testFixtures';

configure({ asyncUtilTimeout: 8000 });
afterEach(() => vi.unstubAllGlobals());

const BASE = '/portal/rest/spm/tables';
const PROJECT = '/portal/rest/spm/project/plant1';
const name = { ...newField('text', 'name', 'Name'), required: true, showInFilter: true };
const depth = { ...newField('number', 'depth', 'Depth'), batchEdit: true, options: { format: 'plain', min: 0 } };
const WELLS = {
  id: 't1',
  name: 'wells',
  title: null,
  state: 'published',
  unpublishedChanges: false,
  draftVersion: 2,
  version: 1,
  draft: definitionOf([name, depth]),
} as unknown as TableDetail;
WELLS.published = WELLS.draft;

function renderTables(handler: (call: MockCall) => { status?: number; body?: unknown } | undefined) {
  signIn();
  const mock = mockFetch((call) => {
    if (call.url === BASE && call.method === 'GET') return { body: [WELLS] };
    if (call.url === `${BASE}/t1` && call.method === 'GET') return { body: WELLS };
    return handler(call) ?? (call.url === PROJECT ? { body: { id: 'plant1', name: 'Harbour plant' } } : undefined);
  });
  renderPage(<ProjectTablesPage />, { path: '/app/model/Project/:id/tables', url: '/app/model/Project/plant1/tables' });
  return mock;
}

describe('table designer page', () => {
  it('builds the list filter from the field types’ operators', () => {
    expect(
      filterOf({ name: { op: 'like', value: 'W.1' }, depth: { op: 'gte', value: 10 }, x: { op: 'eq', value: '' } }),
    ).toEqual({
      name: { $like: 'W\\.1' },
      depth: { $gte: 10 },
    });
    expect(filterOf({ kind: { op: 'in', value: 'a' } })).toEqual({ kind: { $in: ['a'] } });
    expect(filterOf({})).toBeUndefined();
  });

  it('checks the draft with the shared rules first, shows the server’s problems, publishes after the difference', async () => {
    let saves = 0;
    const { calls } = renderTables((call) => {
      if (call.url === `${BASE}/t1/draft`) {
        saves += 1;
        return saves === 1
          ? {
              status: 400,
              body: {
                code: 'tableInvalid',
                message: 'form validation failed',
                fields: { 'fields.2.name': '字段标识重复' },
              },
            }
          : { body: WELLS };
      }
      if (call.url === `${BASE}/t1/publish` && call.method === 'GET')
        return {
          body: {
            draftVersion: 3,
            records: 2,
            settingsChanged: [],
            changes: [depthRetyped(2, 1)],
          },
        };
      if (call.url === `${BASE}/t1/publish`) return { body: { table: WELLS } };
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('table-wells'));
    expect(((await screen.findByTestId('field-name-1')) as HTMLInputElement).value).toBe('depth');
    expect(calls.find((call) => call.url === `${BASE}/t1`)?.headers['x-request-project']).toBe('plant1');

    fireEvent.mouseDown(within(screen.getByTestId('add-field')).getByRole('combobox'));
    fireEvent.click(document.querySelector('.ant-select-item-option[title="文本"]') as HTMLElement);
    // checked as typed: the problem shows before any save, named by the field, and goes once fixed
    expect(screen.getByLabelText('第 3 个字段的标识')).toBe(screen.getByTestId('field-name-2'));
    expect(screen.getByLabelText('第 3 个字段的名称')).toBe(screen.getByTestId('field-title-2'));
    fireEvent.change(await screen.findByTestId('field-name-2'), { target: { value: 'ownerId' } });
    expect((await screen.findByTestId('field-problem-2')).textContent).toBe('字段标识不能以 Id 结尾（不区分大小写）');
    expect(screen.getByTestId('draft-problems').textContent).toBe(
      '字段“文本 (ownerId)”：字段标识不能以 Id 结尾（不区分大小写）',
    );
    fireEvent.click(screen.getByTestId('save-draft'));
    expect(calls.some((call) => call.url === `${BASE}/t1/draft`)).toBe(false);

    fireEvent.change(screen.getByTestId('field-name-2'), { target: { value: 'owner' } });
    expect(screen.queryByTestId('field-problem-2')).toBeNull();
    expect(screen.queryByTestId('draft-problems')).toBeNull();
    fireEvent.click(screen.getByTestId('save-draft'));
    await waitFor(() =>
      expect(screen.getByTestId('draft-problems').textContent).toBe('字段“文本 (owner)”：字段标识重复'),
    );
    expect(screen.getByTestId('draft-problems').textContent).not.toContain('fields.2');
    const sent = calls.find((call) => call.url === `${BASE}/t1/draft`)?.body as {
      fields: Array<{ name: string; type: string }>;
    };
    expect(sent.fields.map((field) => `${field.name}:${field.type}`)).toEqual([
      'name:text',
      'depth:number',
      'owner:text',
    ]);

    // The refused save's problems may show a render before its buttons stop loading (the error toast
    // flushes its own render); a loading button takes no click.
    await waitFor(() => expect(screen.getByTestId('publish').className).not.toContain('ant-btn-loading'));
    fireEvent.click(screen.getByTestId('publish'));
    expect((await screen.findByTestId('change-depth')).textContent).toContain('类型变更');
    fireEvent.click(screen.getByTestId('publish-confirm'));
    await waitFor(() =>
      expect(calls.some((call) => call.url === `${BASE}/t1/publish` && call.method === 'POST')).toBe(true),
    );
    expect(calls.find((call) => call.url === `${BASE}/t1/publish` && call.method === 'POST')?.body).toEqual({
      draftVersion: 3,
    });
    expect(await screen.findByText('发布成功')).toBeTruthy();
    expect(screen.queryByText('保存成功', { selector: '.ant-message-notice *' })).toBeNull();
  });

  it('lists records, adds one (problems beside the field), batch-edits the selected ones', async () => {
    let posts = 0;
    const { calls } = renderTables((call) => {
      if (call.url.startsWith(`${BASE}/t1/records?`))
        return { body: [{ id: 'r1', data: { name: 'W1', depth: 1200 }, createTime: '2026-11-20T08:00:00.000Z' }] };
      if (call.url === `${BASE}/t1/records` && call.method === 'POST') {
        posts += 1;
        return posts === 1
          ? {
              status: 400,
              body: { code: 'recordInvalid', message: 'form validation failed', fields: { depth: '此项的值不能重复' } },
            }
          : { body: { id: 'r2', data: {}, createTime: '2026-11-20T08:00:00.000Z' } };
      }
      if (call.url === `${BASE}/t1/records` && call.method === 'PATCH') return { body: { updated: 1 } };
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('table-wells'));
    fireEvent.click(await screen.findByTestId('tab-records'));
    await waitFor(() => expect(screen.getByTestId('records-table').textContent).toContain('W1'));
    const list = calls.find((call) => call.url.startsWith(`${BASE}/t1/records?`));
    expect(JSON.parse(new URL(`http://x${list?.url}`).searchParams.get('query') ?? '{}')).toMatchObject({
      limit: 20,
      skip: 0,
    });

    fireEvent.click(screen.getByTestId('add-record'));
    fireEvent.change(await screen.findByTestId('record-input-depth'), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('record-save'));
    // The shared value schemas first: the required name, the minimum of depth.
    expect((await screen.findByTestId('record-problem-name')).textContent).toBe('此项必填');
    expect(screen.getByTestId('record-problem-depth').textContent).toBe('不能小于最小值');
    expect(posts).toBe(0);
    fireEvent.change(screen.getByTestId('record-input-name'), { target: { value: 'W2' } });
    fireEvent.change(screen.getByTestId('record-input-depth'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('record-save'));
    await waitFor(() => expect(screen.getByTestId('record-problem-depth').textContent).toBe('此项的值不能重复'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'W2', depth: 5 });

    fireEvent.click(within(screen.getByTestId('records-table')).getAllByRole('checkbox')[1] as HTMLElement);
    fireEvent.click(screen.getByTestId('batch-edit'));
    fireEvent.mouseDown(within(await screen.findByTestId('batch-field')).getByRole('combobox'));
    fireEvent.click(screen.getAllByTitle('Depth').at(-1) as HTMLElement);
    fireEvent.change(await screen.findByTestId('batch-value'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('batch-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ ids: ['r1'], values: { depth: 30 } });
  });

  it('keeps the records list preferences on the user, per project and table name', async () => {
    const KEY = 'records:plant1:wells';
    const { calls } = renderTables((call) => {
      if (call.url === '/portal/rest/spm/user/admin' && call.method === 'GET')
        return {
          body: {
            id: 'admin',
            tableSettings: { [KEY]: { columns: ['depth'], order: ['depth', 'name'], density: 'middle', pageSize: 50 } },
          },
        };
      if (call.url === '/portal/rest/spm/user/admin' && call.method === 'PATCH') return { body: { id: 'admin' } };
      if (call.url.startsWith(`${BASE}/t1/records?`))
        return { body: [{ id: 'r1', data: { name: 'W1', depth: 1200 }, createTime: '2026-11-20T08:00:00.000Z' }] };
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('table-wells'));
    fireEvent.click(await screen.findByTestId('tab-records'));
    const table = async () => screen.getByTestId('records-table');
    await waitFor(async () => expect((await table()).textContent).toContain('1200'));
    // The stored choice: 'name' hidden, the stored page size asked for.
    const headers = () =>
      [...document.querySelectorAll('[data-testid="records-table"] thead th')].map((th) => th.textContent);
    expect(headers()).not.toContain('Name');
    expect(headers()).toContain('Depth');
    const list = calls.find((call) => call.url.startsWith(`${BASE}/t1/records?`));
    expect(JSON.parse(new URL(`http://x${list?.url}`).searchParams.get('query') ?? '{}')).toMatchObject({ limit: 50 });

    fireEvent.click(screen.getByTestId('records-columns'));
    fireEvent.click(await screen.findByTestId('records-columns-col-name'));
    fireEvent.click(screen.getByTestId('records-columns-save'));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      tableSettings: {
        [KEY]: { columns: ['depth', 'name'], order: ['depth', 'name'], density: 'middle', pageSize: 50 },
      },
    });
    await waitFor(() => expect(headers()).toContain('Name'));
  });

  it('names the preferences of a long project and table name by their digest, within 64 characters', () => {
    expect(recordsSettingKey('plant1', 'wells')).toBe('records:plant1:wells');
    const long = recordsSettingKey('p'.repeat(32), 't'.repeat(64));
    expect(long).toMatch(/^records:[0-9a-f]{56}$/);
    expect(recordsSettingKey('p'.repeat(32), `${'t'.repeat(63)}u`)).not.toBe(long);
  });

  it('asks to choose a table when there are tables and none is chosen, under the project’s name', async () => {
    renderTables(() => undefined);
    expect(await screen.findByText('选择一张表进行设计')).toBeTruthy();
    expect(screen.queryByText('暂无表')).toBeNull();
    expect((await screen.findByTestId('tables-title')).textContent).toBe('表设计器 · Harbour plant');
  });

  it('with no table yet, says so once and tells how to make the first', async () => {
    signIn();
    mockFetch((call) =>
      call.url === BASE
        ? { body: [] }
        : call.url === PROJECT
          ? { body: { id: 'plant1', name: 'Harbour plant' } }
          : undefined,
    );
    renderPage(<ProjectTablesPage />, {
      path: '/app/model/Project/:id/tables',
      url: '/app/model/Project/plant1/tables',
    });
    expect(await screen.findByText('输入表名并点击“新建表”，创建第一张表')).toBeTruthy();
    expect(await screen.findAllByText('暂无表')).toHaveLength(1);
  });

  it('deletes a table after the confirmation and says so', async () => {
    const { calls } = renderTables((call) =>
      call.method === 'DELETE' ? { body: { id: 't1', message: 'table deleted' } } : undefined,
    );
    fireEvent.click(await screen.findByTestId('table-delete-wells'));
    fireEvent.click(await screen.findByTestId('table-delete-confirm-wells'));
    expect(await screen.findByText('表已删除')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url).toBe(`${BASE}/t1`);
  });
});
