import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import type { TableShifted } from '../../../services/tableFunctions';
import type { TableSummary } from '../../../services/tables';
import { type MockCall, mockFetch, renderPage, signIn } from '../../../test/utils';
import { ShiftDialog } from './ShiftDialog';
import './texts';

configure({ asyncUtilTimeout: 8000 });
afterEach(() => vi.unstubAllGlobals());

const PROJECTS = '/portal/rest/spm/project';
const WELLS: TableSummary = {
  id: 't1',
  name: 'wells',
  title: 'Wells',
  state: 'published',
  unpublishedChanges: false,
  draftVersion: 2,
  version: 1,
};
const project = (id: string, name: string) => ({ id, name, user: { id: 'acme', name: 'Acme' } });

function show(shift: (call: MockCall) => { status?: number; body?: unknown }, others = [project('plant2', 'North')]) {
  signIn();
  const mock = mockFetch((call) => {
    if (call.url === `${PROJECTS}/plant1`) return { body: project('plant1', 'South') };
    if (call.url.startsWith(`${PROJECTS}?`)) return { body: [project('plant1', 'South'), ...others] };
    if (call.url === '/portal/rest/spm/tables/t1/shift' && call.method === 'POST') return shift(call);
    return undefined;
  });
  const onShifted = vi.fn<(shifted: TableShifted) => void>();
  renderPage(<ShiftDialog projectId="plant1" table={WELLS} onClose={() => undefined} onShifted={onShifted} />, {
    path: '/app/model/Project/:id/tables',
    url: '/app/model/Project/plant1/tables',
  });
  return { mock, onShifted };
}

async function chooseTarget(label: string) {
  fireEvent.mouseDown(within(screen.getByTestId('table-shift-target')).getByRole('combobox'));
  fireEvent.click(await screen.findByTitle(label));
}

describe('shift table dialog', () => {
  it("offers the owner's other projects, asks for one, and moves the table there", async () => {
    const answer: TableShifted = {
      id: 't1',
      project: 'plant2',
      mode: 'move',
      records: 2,
      message: '已将表 wells 及其 2 条记录转移到项目 plant2',
    };
    const { mock, onShifted } = show(() => ({ body: answer }));
    expect(await screen.findByText('转移表 Wells')).toBeTruthy();
    fireEvent.click(screen.getByTestId('table-shift-confirm'));
    expect(await screen.findByText('请选择目标项目')).toBeTruthy();
    // Only the owner's projects, this one left out.
    const list = mock.calls.find((call) => call.url.startsWith(`${PROJECTS}?`));
    expect(decodeURIComponent(list?.url ?? '')).toContain('"filter":{"user":"acme"}');
    fireEvent.mouseDown(within(screen.getByTestId('table-shift-target')).getByRole('combobox'));
    expect(await screen.findByTitle('North (plant2)')).toBeTruthy();
    expect(screen.queryByTitle('South (plant1)')).toBeNull();
    fireEvent.click(screen.getByTitle('North (plant2)'));
    fireEvent.click(screen.getByLabelText('移动（从本项目移除此表）'));
    fireEvent.click(screen.getByTestId('table-shift-confirm'));
    await waitFor(() => expect(onShifted).toHaveBeenCalledWith(answer));
    const posted = mock.calls.find((call) => call.method === 'POST');
    expect(posted?.body).toEqual({ project: 'plant2', mode: 'move' });
    expect(posted?.headers['x-request-project']).toBe('plant1');
    expect(await screen.findByText(answer.message)).toBeTruthy();
  });

  it('shows why the server refused, in English too, and stays open', async () => {
    await i18n.changeLanguage('en');
    const { onShifted } = show(() => ({
      status: 409,
      body: {
        code: 'tableShiftLimit',
        message: 'The target project has as many tables as its grant allows (2)',
        license: 'The target project has as many tables as its grant allows (2)',
      },
    }));
    expect(await screen.findByText('Shift table Wells')).toBeTruthy();
    await chooseTarget('North (plant2)');
    expect(screen.getByLabelText('Copy (this project keeps the table)')).toHaveProperty('checked', true);
    fireEvent.click(screen.getByTestId('table-shift-confirm'));
    expect((await screen.findAllByText(/as many tables as its grant allows \(2\)/)).length).toBeGreaterThan(0);
    expect(onShifted).not.toHaveBeenCalled();
    expect(screen.getByText('Shift table Wells')).toBeTruthy();
    await i18n.changeLanguage('zh_Hans');
  });

  it('says when the owner has no other project', async () => {
    show(() => ({ body: {} }), []);
    expect(await screen.findByText('同一所有者没有其他项目')).toBeTruthy();
    expect(screen.getByTestId('table-shift-confirm')).toHaveProperty('disabled', true);
  });
});
