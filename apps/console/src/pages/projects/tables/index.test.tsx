import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableDetail } from '../../../services/tables';
import { type MockCall, mockFetch, renderPage, signIn } from '../../../test/utils';
import ProjectTablesPage, { typedValue } from '.';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

const BASE = '/portal/rest/spm/tables';
const common = {
  description: undefined,
  descriptionDisplay: 'tooltip',
  readOnly: false,
  unique: false,
  showOnCreate: true,
  showOnEdit: true,
  showInList: true,
  editableInList: false,
  batchEdit: false,
  showInFilter: false,
  dedupeFilterOptions: false,
  sortable: false,
};
const DEFINITION = {
  internal: true,
  uniqueTogether: [],
  rules: [],
  permissions: { view: [], add: [], manage: [] },
  list: { pageSize: 20, sortOrder: -1 },
  display: {},
  detail: {},
};
const WELLS = {
  id: 't1',
  name: 'wells',
  title: null,
  state: 'published',
  unpublishedChanges: false,
  draftVersion: 2,
  version: 1,
  draft: {
    ...DEFINITION,
    fields: [
      { ...common, name: 'name', title: 'Name', type: 'text', required: true, options: { kind: 'ordinary' } },
      { ...common, name: 'depth', title: 'Depth', type: 'number', required: false, options: { format: 'plain' } },
    ],
  },
} as unknown as TableDetail;
WELLS.published = WELLS.draft;

function renderTables(handler: (call: MockCall) => { status?: number; body?: unknown } | undefined) {
  signIn();
  const mock = mockFetch((call) => {
    if (call.url === BASE && call.method === 'GET') return { body: [WELLS] };
    if (call.url === `${BASE}/t1` && call.method === 'GET') return { body: WELLS };
    return handler(call);
  });
  renderPage(<ProjectTablesPage />, { path: '/app/model/Project/:id/tables', url: '/app/model/Project/plant1/tables' });
  return mock;
}

describe('table designer page', () => {
  it('turns typed text into the field type’s value', () => {
    expect(typedValue('number', '12.5')).toBe(12.5);
    expect(typedValue('boolean', 'true')).toBe(true);
    expect(typedValue('multiSelect', '["a"]')).toEqual(['a']);
    expect(typedValue('text', '')).toBeUndefined();
  });

  it('saves the draft (showing the server’s problems), then publishes after showing the difference', async () => {
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
                fields: { 'fields.2.name': '字段标识不能以 Id 结尾（不区分大小写）' },
              },
            }
          : { body: WELLS };
      }
      if (call.url === `${BASE}/t1/publish` && call.method === 'GET')
        return {
          body: {
            draftVersion: 3,
            records: 2,
            changes: [
              {
                field: 'depth',
                title: 'Depth',
                change: 'typeChanged',
                from: 'text',
                to: 'number',
                values: 2,
                converted: 1,
                dropped: 1,
              },
            ],
          },
        };
      if (call.url === `${BASE}/t1/publish`) return { body: { table: WELLS } };
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('table-wells'));
    expect(((await screen.findByTestId('field-name-1')) as HTMLInputElement).value).toBe('depth');
    expect(calls.find((call) => call.url === `${BASE}/t1`)?.headers['x-request-project']).toBe('plant1');

    fireEvent.click(screen.getByTestId('add-field'));
    fireEvent.change(await screen.findByTestId('field-name-2'), { target: { value: 'ownerId' } });
    fireEvent.click(screen.getByTestId('save-draft'));
    expect((await screen.findByTestId('draft-problems')).textContent).toContain(
      'fields.2.name: 字段标识不能以 Id 结尾',
    );
    const sent = calls.find((call) => call.url === `${BASE}/t1/draft`)?.body as { fields: Array<{ name: string }> };
    expect(sent.fields.map((field) => field.name)).toEqual(['name', 'depth', 'ownerId']);

    fireEvent.click(screen.getByTestId('publish'));
    const changes = await screen.findByTestId('publish-changes');
    expect(changes.textContent).toContain('类型变更');
    fireEvent.click(screen.getByTestId('publish-confirm'));
    await waitFor(() =>
      expect(calls.some((call) => call.url === `${BASE}/t1/publish` && call.method === 'POST')).toBe(true),
    );
    expect(calls.find((call) => call.url === `${BASE}/t1/publish` && call.method === 'POST')?.body).toEqual({
      draftVersion: 3,
    });
  });

  it('lists records and adds one, showing a refused value beside its field', async () => {
    let posts = 0;
    const { calls } = renderTables((call) => {
      if (call.url === `${BASE}/t1/records` && call.method === 'GET')
        return { body: [{ id: 'r1', data: { name: 'W1', depth: 1200 }, createTime: '2026-11-20T08:00:00.000Z' }] };
      if (call.url === `${BASE}/t1/records`) {
        posts += 1;
        return posts === 1
          ? {
              status: 400,
              body: { code: 'recordInvalid', message: 'form validation failed', fields: { depth: '不能小于最小值' } },
            }
          : { body: { id: 'r2', data: {}, createTime: '2026-11-20T08:00:00.000Z' } };
      }
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('table-wells'));
    fireEvent.click(await screen.findByText('记录'));
    await waitFor(() => expect(screen.getByTestId('records').textContent).toContain('W1'));
    fireEvent.click(screen.getByTestId('add-record'));
    fireEvent.change(await screen.findByTestId('record-input-name'), { target: { value: 'W2' } });
    fireEvent.change(screen.getByTestId('record-input-depth'), { target: { value: '-1' } });
    fireEvent.click(screen.getByTestId('record-save'));
    expect((await screen.findByTestId('record-problem-depth')).textContent).toBe('不能小于最小值');
    expect(calls.find((call) => call.url === `${BASE}/t1/records` && call.method === 'POST')?.body).toEqual({
      name: 'W2',
      depth: -1,
    });
    fireEvent.click(screen.getByTestId('record-save'));
    await waitFor(() => expect(posts).toBe(2));
  });
});
