import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import type { SyncPreview } from '../../../services/tableFunctions';
import type { TableSummary } from '../../../services/tables';
import { mockFetch, renderPage, signIn } from '../../../test/utils';
import { MappingCreateDialog, SyncDialog } from './MappingDialogs';
import './texts';

configure({ asyncUtilTimeout: 8000 });
afterEach(() => vi.unstubAllGlobals());

const BASE = '/portal/rest/spm/tables';
const table = (id: string, name: string, state: TableSummary['state'], mapping: TableSummary['mapping'] = null) => ({
  id,
  name,
  title: null,
  state,
  unpublishedChanges: false,
  draftVersion: 1,
  version: state === 'published' ? 1 : 0,
  mapping,
});
const WELLS = table('t1', 'wells', 'published');
const DRAFTY = table('t2', 'drafty', 'draft');
const MAP = table('t3', 'wellsMap', 'published', { source: 't1', sourceVersion: 1, syncedAt: '2026-11-29T00:00:00Z' });
const route = { path: '/app/model/Project/:id/tables', url: '/app/model/Project/plant1/tables' };

describe('mapping table dialogs', () => {
  it('makes a mapping table from a published source of the project', async () => {
    signIn();
    const mock = mockFetch((call) =>
      call.url === BASE && call.method === 'POST' ? { body: { ...MAP, draft: {}, published: {} } } : undefined,
    );
    const onCreated = vi.fn();
    renderPage(
      <MappingCreateDialog
        projectId="plant1"
        open
        tables={[WELLS, DRAFTY]}
        onClose={() => undefined}
        onCreated={onCreated}
      />,
      route,
    );
    fireEvent.click(await screen.findByTestId('mapping-create-confirm'));
    expect(await screen.findByText('表名不能为空')).toBeTruthy();
    expect(screen.getByText('请选择已发布的源表')).toBeTruthy();
    fireEvent.change(screen.getByTestId('mapping-name'), { target: { value: 'wellsMap' } });
    fireEvent.mouseDown(within(screen.getByTestId('mapping-source')).getByRole('combobox'));
    // Only published tables can be a source.
    expect(await screen.findByTitle('wells')).toBeTruthy();
    expect(screen.queryByTitle('drafty')).toBeNull();
    fireEvent.click(screen.getByTitle('wells'));
    fireEvent.click(screen.getByTestId('mapping-create-confirm'));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('t3'));
    const posted = mock.calls.find((call) => call.method === 'POST');
    expect(posted?.body).toEqual({ name: 'wellsMap', source: 't1' });
    expect(posted?.headers['x-request-project']).toBe('plant1');
  });

  it("lists the source's changes, warns with 'data sync exception' and confirms with the version shown", async () => {
    signIn();
    const preview: SyncPreview = {
      source: 't1',
      sourceVersion: 3,
      syncedVersion: 1,
      changes: [
        { field: 'depth', title: 'Depth', change: 'typeChanged', from: 'number', to: 'text', values: 4 },
        { field: 'note', title: 'Note', change: 'removed', from: 'text', values: 2 },
        { field: 'active', title: 'Active', change: 'added', to: 'boolean', values: 0 },
      ],
      mismatched: ['depth', 'note'],
    };
    const mock = mockFetch((call) => {
      if (call.url === `${BASE}/t3/sync` && call.method === 'GET') return { body: preview };
      if (call.url === `${BASE}/t3/sync` && call.method === 'POST')
        return { body: { ...MAP, draft: {}, published: {} } };
      return undefined;
    });
    const onSynced = vi.fn();
    renderPage(<SyncDialog projectId="plant1" table={MAP} onClose={() => undefined} onSynced={onSynced} />, route);
    expect((await screen.findByTestId('sync-mismatch')).textContent).toContain(
      '数据同步异常：确认后将删除不匹配的字段',
    );
    expect(screen.getByTestId('sync-mismatch').textContent).toContain('depth, note');
    expect(screen.getByTestId('sync-intro').textContent).toBe('源表自上次同步（版本 1）到当前版本 3 的变化：');
    expect(screen.getByTestId('sync-change-depth').textContent).toBe('类型变更数字 → 文本');
    expect(screen.getByTestId('sync-change-note').textContent).toContain('删除');
    fireEvent.click(screen.getByTestId('sync-confirm'));
    await waitFor(() => expect(onSynced).toHaveBeenCalled());
    expect(mock.calls.find((call) => call.method === 'POST')?.body).toEqual({ sourceVersion: 3 });
  });

  it("shows the server's 'data sync exception' in English and stays open", async () => {
    await i18n.changeLanguage('en');
    signIn();
    const message = 'data sync exception: the source changed since these differences were shown: look again';
    mockFetch((call) => {
      if (call.method === 'GET')
        return { body: { source: 't1', sourceVersion: 1, syncedVersion: 1, changes: [], mismatched: [] } };
      return { status: 409, body: { code: 'tableSyncFailed', message } };
    });
    const onSynced = vi.fn();
    renderPage(<SyncDialog projectId="plant1" table={MAP} onClose={() => undefined} onSynced={onSynced} />, route);
    expect((await screen.findByTestId('sync-intro')).textContent).toBe(
      'The source has not changed since the last sync',
    );
    expect(screen.queryByTestId('sync-mismatch')).toBeNull();
    fireEvent.click(screen.getByTestId('sync-confirm'));
    expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    expect(onSynced).not.toHaveBeenCalled();
    expect(screen.getByText('Sync configuration: wellsMap')).toBeTruthy();
    await i18n.changeLanguage('zh_Hans');
  });
});
